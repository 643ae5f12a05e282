"""The demo database's ASM disk groups, as V$ASM_DISKGROUP_STAT would show them to its instance.

Two NORMAL-redundancy groups, as such a database keeps them: DATA on eight 512 GiB hard-disk LUNs (the
order-entry tables, SYSAUX, undo and temp, plus what else lives there: redo, control files, another
database's files) and FLASH on four 100 GiB flash LUNs (FLASH_DATA and SOE_INDEX's later files, and a
neighbour's flash tablespace), each disk its own failure group. Their free space follows the demo's files
(:func:`apps.targets.demo.space.data_files_at`), so moves that grow a tablespace take it from its group:
mirroring writes every file extent twice, ASM keeps one disk's worth free to restore redundancy after a
disk loss (REQUIRED_MIRROR_FREE_MB), and USABLE_FILE_MB = (FREE_MB - REQUIRED_MIRROR_FREE_MB) / 2 is what
files may still take. FLASH is tight by design (a few tens of GiB usable), so a large move into SOE_INDEX is
flagged. Standard library only.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from apps.targets.rows import DataFile, DiskGroup
from apps.targets.storage import location_of

_MIB = 1024**2
#: Copies of each extent per redundancy (FLEX and EXTEND are not used here).
COPIES = {"EXTERN": 1, "NORMAL": 2, "HIGH": 3}


@dataclass(frozen=True)
class GroupLayout:
    """A disk group's disks and what it holds besides the demo's data and temp files (raw MiB)."""

    name: str
    redundancy: str
    disks: int
    disk_mb: int
    other_raw_mb: int


GROUPS: tuple[GroupLayout, ...] = (
    GroupLayout("DATA", "NORMAL", disks=8, disk_mb=512 * 1024, other_raw_mb=1536 * 1024),
    GroupLayout("FLASH", "NORMAL", disks=4, disk_mb=100 * 1024, other_raw_mb=120 * 1024),
)


def disk_groups_at(files: Sequence[DataFile]) -> tuple[DiskGroup, ...]:
    """The groups as they are with ``files`` in them (data and temp files), by name."""
    held: dict[str, int] = {}
    for row in files:
        place = location_of(row.file_name).name
        held[place] = held.get(place, 0) + (row.size_bytes or 0)
    result = []
    for group in GROUPS:
        copies = COPIES[group.redundancy]
        total = group.disks * group.disk_mb
        free = total - copies * math.ceil(held.get(f"+{group.name}", 0) / _MIB) - group.other_raw_mb
        required = group.disk_mb  # one failure group (one disk) to restore redundancy after losing it
        result.append(DiskGroup(
            name=group.name, redundancy=group.redundancy, state="CONNECTED", total_mb=total, free_mb=free,
            required_mirror_free_mb=required, usable_file_mb=(free - required) // copies, offline_disks=0,
            allocation_unit_bytes=4 * _MIB, sector_size_bytes=512, block_size_bytes=4096,
            compatibility="19.0.0.0.0", database_compatibility="19.0.0.0.0",
        ))
    return tuple(result)
