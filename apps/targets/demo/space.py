"""Room in the demo database's tablespaces, as DBA_DATA_FILES and DBA_SEGMENTS would give it.

Used is what the segments of the hour hold (``segments_at``); the files follow a layout a DBA of
such a database would keep: flash is bought by the device and sized tight, without autoextend
(FLASH_DATA's 48 GiB hold the 36.7 GiB there now, CUSTOMER_ARCHIVE's 35 GB included); the disk
tablespaces autoextend in steps up to their files' limit (an unlimited smallfile of 8 KiB blocks stops
just short of 32 GiB; a bigfile on hi-capacity disk). Undo and temp are left out, as sql/tablespaces.sql
leaves them out. Standard library only.

The files (:func:`data_files_at`, DBA_DATA_FILES and DBA_TEMP_FILES) sit where such a database keeps
them: flash tablespaces on ASM disk group +FLASH, the order-entry tables and SYSAUX on +DATA, the
history bigfile on a file system (/u03/oradata), and SOE_INDEX spread over +DATA and +FLASH (its
later files were added on flash), so the storage map has a tablespace over two locations to flag.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from apps.targets.demo.schema import BLOCK_SIZE_BYTES, TABLESPACES, segments_at
from apps.targets.rows import DataFile, TablespaceSpace

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


#: Each tablespace's files in the order they were added, as DBA_DATA_FILES names them (ASM OMF names:
#: +GROUP/DB_UNIQUE_NAME/DATAFILE/tag.file#.incarnation). A smallfile tablespace has as many as its size
#: needs, each up to SMALLFILE_MAX_BYTES; a bigfile tablespace one.
FILE_NAMES: dict[str, tuple[str, ...]] = {
    "SYSAUX": ("+DATA/DEMO/DATAFILE/sysaux.258.1150000000",),
    "UNDOTBS1": ("+DATA/DEMO/DATAFILE/undotbs1.259.1150000000",),
    "FLASH_DATA": ("+FLASH/DEMO/DATAFILE/flash_data.261.1150000001", "+FLASH/DEMO/DATAFILE/flash_data.262.1150000001"),
    "SOE_DATA": tuple(f"+DATA/DEMO/DATAFILE/soe_data.{263 + i}.1150000002" for i in range(8)),
    "SOE_INDEX": ("+DATA/DEMO/DATAFILE/soe_index.271.1150000003",
                  *(f"+FLASH/DEMO/DATAFILE/soe_index.{272 + i}.1150000004" for i in range(3))),
    "HIST_DATA": ("/u03/oradata/DEMO/hist_data01.dbf",),
}
BIGFILE_TABLESPACES = frozenset({"HIST_DATA"})
#: Undo and temp are not in tablespace_space_at: fixed sizes, as a DBA would size them.
FIXED_FILES: dict[str, int] = {"UNDOTBS1": 8 * _GIB}
TEMP_FILES: tuple[tuple[str, str, int], ...] = (("TEMP", "+DATA/DEMO/TEMPFILE/temp.260.1150000000", 16 * _GIB),)


def data_files_at(snap_id: int, spaces: Sequence[TablespaceSpace] | None = None) -> tuple[DataFile, ...]:
    """Every data and temp file at the end of hour ``snap_id``; data files add up to each tablespace's size in
    ``spaces`` (default :func:`tablespace_space_at`; the demo source passes them with its moves applied).
    FILE_IDs follow FILE_NAMES' order, so a file keeps its id as files are added."""
    spaces = tablespace_space_at(snap_id) if spaces is None else spaces
    sizes = {space.tablespace_name: space for space in spaces}
    files: list[DataFile] = []
    file_id = 0
    for tablespace, names in FILE_NAMES.items():
        space = sizes.get(tablespace)
        total = FIXED_FILES.get(tablespace, 0) if space is None else space.size_bytes or 0
        step = total if tablespace in BIGFILE_TABLESPACES or space is None else SMALLFILE_MAX_BYTES
        autoextend = space is not None and LAYOUTS[tablespace].step_bytes > 0
        for name in names:
            file_id += 1
            if total <= 0:
                continue  # not added yet: the tablespace still fits in the files before it
            size = min(step, total)
            total -= size
            limit = (LAYOUTS[tablespace].max_bytes if tablespace in BIGFILE_TABLESPACES else SMALLFILE_MAX_BYTES)
            files.append(DataFile(tablespace_name=tablespace, file_id=file_id, file_name=name, size_bytes=size,
                                  max_size_bytes=limit if autoextend else size, autoextensible=autoextend))
    for temp_id, (tablespace, name, size) in enumerate(TEMP_FILES, start=1):
        files.append(DataFile(tablespace_name=tablespace, file_id=temp_id, file_name=name, size_bytes=size,
                              max_size_bytes=size, autoextensible=False, file_type="TEMP"))
    return tuple(files)
