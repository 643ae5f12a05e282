"""What the database holds now: segments, their cache residency, and the room they live in.

``SQL_SEGMENTS`` (DBA_SEGMENTS with object numbers and LOB columns), ``SQL_RESIDENCY`` /
``SQL_RESIDENCY_RAC`` (V$BH / GV$BH), and the storage statements (tablespaces, data and temp files,
tablespace usage, free space, ASM disk groups; their rows are mapped in :mod:`apps.targets.oracle.space`).
Reached as ``queries.fetch_*`` too (the loader and runner are in :mod:`apps.targets.oracle.queries`).
"""

from __future__ import annotations

from typing import Any

from apps.targets.oracle.queries import Cursor, Statement, _int_or_none, _run
from apps.targets.oracle.space import Usage, data_file, disk_group_rows, free_space_rows, tablespace_space, usage_rows
from apps.targets.rows import DataFile, DiskGroup, Residency, SegmentInfo, SegmentKey, TablespaceSpace

SQL_SEGMENTS = Statement("segments")
SQL_RESIDENCY = Statement("residency")
SQL_RESIDENCY_RAC = Statement("residency_rac")
SQL_TABLESPACES = Statement("tablespaces")
SQL_DATAFILES = Statement("datafiles")
SQL_TABLESPACE_USAGE = Statement("tablespace_usage")
SQL_FREE_SPACE = Statement("free_space")
SQL_ASM_DISKGROUPS = Statement("asm_diskgroups")


def fetch_segments(cursor: Cursor, *, mode: str) -> tuple[SegmentInfo, ...]:
    """Every segment now (DBA_SEGMENTS), with object numbers and the LOB's owning column."""
    return tuple(_segment_info(row) for row in _run(cursor, SQL_SEGMENTS, mode=mode))


def _segment_info(row: dict[str, Any]) -> SegmentInfo:
    segment_type = str(row["SEGMENT_TYPE"])
    segment_name = str(row["SEGMENT_NAME"])
    lob_table = row["LOB_TABLE_NAME"]
    parent = None
    if lob_table:
        # LOB segments, LOB indexes and LOB partitions belong to the LOB's table.
        parent = str(lob_table)
    elif "PARTITION" in segment_type:
        # A (sub)partition's SEGMENT_NAME is its table/index.
        parent = segment_name
    partition = row["LOB_TABLE_PARTITION_NAME"]
    return SegmentInfo(
        key=SegmentKey(
            owner=str(row["OWNER"]),
            object_name=segment_name,
            subobject_name=str(row["PARTITION_NAME"] or ""),
            object_type=segment_type,
        ),
        tablespace_name=str(row["TABLESPACE_NAME"] or ""),
        bytes=int(row["BYTES"]),
        blocks=int(row["BLOCKS"]),
        obj_number=_int_or_none(row["OBJ_NUMBER"]),
        dataobj_number=_int_or_none(row["DATAOBJ_NUMBER"]),
        buffer_pool=row["BUFFER_POOL"],
        flash_cache=row["FLASH_CACHE"],
        cell_flash_cache=row["CELL_FLASH_CACHE"],
        partitioned_parent=parent,
        # Column name alone: quoted names may contain dots, so never "TABLE.COLUMN".
        lob_column=None if row["LOB_COLUMN_NAME"] is None else str(row["LOB_COLUMN_NAME"]),
        table_partition_name=None if partition is None else str(partition),
        # Optional: a segments.csv of an older extract (or sizes file) has no such columns.
        partition_position=_int_or_none(row.get("PARTITION_POSITION")),
        partition_interval=None if row.get("PARTITION_INTERVAL") is None else row["PARTITION_INTERVAL"] == "YES",
    )


def fetch_residency(cursor: Cursor, *, mode: str, rac: bool,
                    instance_numbers: dict[int, int]) -> tuple[Residency, ...]:
    """Flash vs buffer cache blocks per data object (V$BH, or GV$BH on RAC), grouped on the
    server. ``instance_numbers`` maps INST_ID to INSTANCE_NUMBER; rows with OBJD NULL are
    dropped."""
    statement = SQL_RESIDENCY_RAC if rac else SQL_RESIDENCY
    result = []
    for row in _run(cursor, statement, mode=mode):
        if row["DATAOBJ_NUMBER"] is None:
            continue
        inst_id = int(row["INST_ID"])
        result.append(Residency(
            instance_number=instance_numbers.get(inst_id, inst_id),
            dataobj_number=int(row["DATAOBJ_NUMBER"]),
            flash_blocks=int(row["FLASH_BLOCKS"] or 0),
            cache_blocks=int(row["CACHE_BLOCKS"] or 0),
        ))
    return tuple(result)


def fetch_tablespaces(cursor: Cursor, *, mode: str) -> tuple[TablespaceSpace, ...]:
    """Size, used and max size of every permanent tablespace, by name (mapped in oracle.space)."""
    rows = _run(cursor, SQL_TABLESPACES, mode=mode)
    return tuple(sorted((tablespace_space(row) for row in rows), key=lambda space: space.tablespace_name))


def fetch_datafiles(cursor: Cursor, *, mode: str) -> tuple[DataFile, ...]:
    """Every data and temp file with its tablespace and size (mapped in oracle.space), by type and file id."""
    rows = _run(cursor, SQL_DATAFILES, mode=mode)
    return tuple(sorted((data_file(row) for row in rows), key=lambda f: (f.file_type, f.file_id)))


def fetch_tablespace_usage(cursor: Cursor, *, mode: str) -> dict[str, Usage]:
    """Used and max size in blocks per tablespace (DBA_TABLESPACE_USAGE_METRICS; oracle.room uses it)."""
    return usage_rows(_run(cursor, SQL_TABLESPACE_USAGE, mode=mode))


def fetch_free_space(cursor: Cursor, *, mode: str) -> dict[str, int | None]:
    """Free extents' bytes per tablespace (DBA_FREE_SPACE; oracle.room's fallback)."""
    return free_space_rows(_run(cursor, SQL_FREE_SPACE, mode=mode))


def fetch_asm_diskgroups(cursor: Cursor, *, mode: str) -> tuple[DiskGroup, ...]:
    """The ASM disk groups the instance sees (V$ASM_DISKGROUP_STAT), by name."""
    return disk_group_rows(_run(cursor, SQL_ASM_DISKGROUPS, mode=mode))
