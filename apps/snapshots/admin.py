from django.contrib import admin

from apps.core.admin_delete import CountedDeleteAdmin
from apps.snapshots.models import CollectionRun, DataFile
from apps.snapshots.storage_models import DiskGroup


class _ReadOnlyAdmin(CountedDeleteAdmin):
    """Rows the collection writes: shown, never added or edited here."""

    def get_readonly_fields(self, request, obj=None):
        return [f.name for f in self.model._meta.fields]

    def has_add_permission(self, request):
        return False


@admin.register(CollectionRun)
class CollectionRunAdmin(_ReadOnlyAdmin):
    list_display = ["target", "status", "trigger", "queued_at", "finished_at", "snapshots_added", "rows_added"]
    list_filter = ["status", "target"]


@admin.register(DataFile)
class DataFileAdmin(_ReadOnlyAdmin):
    """The files of each target's newest collection (the storage map's input): read only."""

    list_display = ["target", "file_type", "file_id", "tablespace_name", "file_name", "location", "size_bytes"]
    list_filter = ["target", "file_type", "location"]
    search_fields = ["file_name", "tablespace_name"]


@admin.register(DiskGroup)
class DiskGroupAdmin(_ReadOnlyAdmin):
    """The ASM disk groups of each target's newest collection (V$ASM_DISKGROUP_STAT): read only."""

    list_display = ["target", "name", "redundancy", "state", "total_mb", "free_mb", "usable_file_mb", "collected_at"]
    list_filter = ["target", "redundancy"]
