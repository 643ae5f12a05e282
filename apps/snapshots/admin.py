from django.contrib import admin

from apps.snapshots.models import CollectionRun, DataFile


@admin.register(CollectionRun)
class CollectionRunAdmin(admin.ModelAdmin):
    list_display = ["target", "status", "trigger", "queued_at", "finished_at", "snapshots_added", "rows_added"]
    list_filter = ["status", "target"]
    readonly_fields = [f.name for f in CollectionRun._meta.fields]

    def has_add_permission(self, request):
        return False


@admin.register(DataFile)
class DataFileAdmin(admin.ModelAdmin):
    """The files of each target's newest collection (the storage map's input): read only."""

    list_display = ["target", "file_type", "file_id", "tablespace_name", "file_name", "location", "size_bytes"]
    list_filter = ["target", "file_type", "location"]
    search_fields = ["file_name", "tablespace_name"]
    readonly_fields = [f.name for f in DataFile._meta.fields]

    def has_add_permission(self, request):
        return False
