"""Room in the demo database's tablespaces, as DBA_DATA_FILES and DBA_SEGMENTS would give it.

Used is what the segments of the hour hold (``segments_at``); the files follow a layout a DBA of
such a database would keep: flash is bought by the device and sized tight, without autoextend
(FLASH_DATA's 48 GiB hold the 36.7 GiB there now, CUSTOMER_ARCHIVE's 35 GB included); the disk
tablespaces autoextend in steps up to their files' limit (an unlimited smallfile of 8 KiB blocks stops
just short of 32 GiB; a bigfile on hi-capacity disk). Undo and temp are left out, as sql/tablespaces.sql
leaves them out. Standard library only.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass

from apps.targets.demo.schema import BLOCK_SIZE_BYTES, TABLESPACES, segments_at
from apps.targets.rows import TablespaceSpace

_GIB = 1024**3
#: An unlimited autoextensible smallfile of 8 KiB blocks, as DBA_DATA_FILES shows it (MAXBLOCKS 4194302,
#: MAXBYTES 34359721984).
SMALLFILE_MAX_BYTES = 4_194_302 * BLOCK_SIZE_BYTES


@dataclass(frozen=True)
class FileLayout:
    """A tablespace's data files: their size at creation, autoextend step and limit (all files together)."""

    initial_bytes: int
    max_bytes: int
    step_bytes: int = 0  # 0: fixed size, no autoextend


LAYOUTS: dict[str, FileLayout] = {
    "FLASH_DATA": FileLayout(initial_bytes=48 * _GIB, max_bytes=48 * _GIB),
    "SOE_DATA": FileLayout(initial_bytes=160 * _GIB, max_bytes=8 * SMALLFILE_MAX_BYTES, step_bytes=8 * _GIB),
    "SOE_INDEX": FileLayout(initial_bytes=48 * _GIB, max_bytes=4 * SMALLFILE_MAX_BYTES, step_bytes=4 * _GIB),
    "HIST_DATA": FileLayout(initial_bytes=200 * _GIB, max_bytes=1024 * _GIB, step_bytes=16 * _GIB),
    "SYSAUX": FileLayout(initial_bytes=2 * _GIB, max_bytes=SMALLFILE_MAX_BYTES, step_bytes=256 * 1024**2),
}


def file_size_bytes(layout: FileLayout, used_bytes: int) -> int:
    """What the files hold once autoextend has made room for ``used_bytes`` (whole steps, within the limit).

    >>> layout = FileLayout(initial_bytes=10, max_bytes=40, step_bytes=4)
    >>> file_size_bytes(layout, 8), file_size_bytes(layout, 11), file_size_bytes(layout, 39)
    (10, 14, 40)
    """
    if layout.step_bytes == 0 or used_bytes <= layout.initial_bytes:
        return layout.initial_bytes
    steps = math.ceil((used_bytes - layout.initial_bytes) / layout.step_bytes)
    return min(layout.max_bytes, layout.initial_bytes + steps * layout.step_bytes)


def tablespace_space_at(snap_id: int) -> tuple[TablespaceSpace, ...]:
    """Room in every permanent tablespace at the end of hour ``snap_id``, by name."""
    used: Counter[str] = Counter()
    for spec in segments_at(snap_id):
        used[spec.tablespace_name] += spec.size_bytes
    permanent = sorted(ts.name for ts in TABLESPACES if ts.contents == "PERMANENT")
    return tuple(
        TablespaceSpace(
            tablespace_name=name, size_bytes=file_size_bytes(LAYOUTS[name], used[name]), used_bytes=used[name],
            max_size_bytes=LAYOUTS[name].max_bytes, block_size_bytes=BLOCK_SIZE_BYTES,
            autoextensible=LAYOUTS[name].step_bytes > 0,
        )
        for name in permanent
    )
