from django.contrib import admin

from apps.snapshots.models import CollectionRun


@admin.register(CollectionRun)
class CollectionRunAdmin(admin.ModelAdmin):
    list_display = ["target", "status", "trigger", "queued_at", "finished_at", "snapshots_added", "rows_added"]
    list_filter = ["status", "target"]
    readonly_fields = [f.name for f in CollectionRun._meta.fields]

    def has_add_permission(self, request):
        return False
