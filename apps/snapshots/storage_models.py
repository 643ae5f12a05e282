"""The ASM disk groups under a target's data files (apps.snapshots.models imports it, so Django finds it).

A module of its own: models.py is past the house's 400 lines.
"""

from __future__ import annotations

from django.db import models


class DiskGroup(models.Model):
    """An ASM disk group of a target as its newest collection that listed data files read it
    (V$ASM_DISKGROUP_STAT): redundancy, raw and usable free space.

    Only the newest collection's groups are kept (apps.snapshots.storage_map.datafiles_store replaces them with
    the files): a group the view did not list then (not readable, not used by the instance, a pluggable
    database that sees none) has no row, and its figures are unknown. NULL is unknown, never 0. Sizes in
    MiB as the view gives them; ``usable_file_mb`` may be negative.
    """

    target = models.ForeignKey("targets.Target", on_delete=models.CASCADE, related_name="disk_groups")
    collected_at = models.DateTimeField()
    name = models.CharField(max_length=128, help_text="as V$ASM_DISKGROUP names it: DATA (files: +DATA/...)")
    redundancy = models.CharField(max_length=16, blank=True, default="",
                                  help_text="V$ASM_DISKGROUP.TYPE: EXTERN, NORMAL, HIGH, FLEX, EXTEND")
    state = models.CharField(max_length=16, blank=True, default="")
    total_mb = models.BigIntegerField(null=True, help_text="raw, before mirroring")
    free_mb = models.BigIntegerField(null=True, help_text="raw, before mirroring")
    required_mirror_free_mb = models.BigIntegerField(null=True)
    usable_file_mb = models.BigIntegerField(null=True, help_text="what files may still take, mirroring counted")
    offline_disks = models.IntegerField(null=True)
    allocation_unit_bytes = models.BigIntegerField(null=True)
    sector_size_bytes = models.IntegerField(null=True)
    block_size_bytes = models.IntegerField(null=True)
    compatibility = models.CharField(max_length=60, blank=True, default="")
    database_compatibility = models.CharField(max_length=60, blank=True, default="")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["target", "name"], name="disk_group_unique")]
        ordering = ["target", "name"]

    def __str__(self) -> str:
        return f"{self.target}: +{self.name}"
