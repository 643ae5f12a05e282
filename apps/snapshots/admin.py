from django.contrib import admin

from apps.snapshots.models import CollectionRun, DataFile
from apps.snapshots.storage_models import DiskGroup


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


@admin.register(DiskGroup)
class DiskGroupAdmin(admin.ModelAdmin):
    """The ASM disk groups of each target's newest collection (V$ASM_DISKGROUP_STAT): read only."""

    list_display = ["target", "name", "redundancy", "state", "total_mb", "free_mb", "usable_file_mb", "collected_at"]
    list_filter = ["target", "redundancy"]
    readonly_fields = [f.name for f in DiskGroup._meta.fields]

    def has_add_permission(self, request):
        return False
