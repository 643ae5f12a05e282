"""One row of sql/tablespaces.sql as a TablespaceSpace (queries.fetch_tablespaces runs the statement), one of
sql/datafiles.sql as a DataFile (queries.fetch_datafiles), and the rows of tablespace_usage.sql, free_space.sql
and asm_diskgroups.sql (apps.targets.oracle.room puts them together).

The mapping sits here, not in queries.py, which is past the house's 500 lines. By column name, as
queries maps every statement; a NULL stays None (unknown), never 0.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from apps.targets.rows import DataFile, DiskGroup, TablespaceSpace


def _int_or_none(value: Any) -> int | None:
    return None if value is None else int(value)


def tablespace_space(row: dict[str, Any]) -> TablespaceSpace:
    """{COLUMN: value} of sql/tablespaces.sql -> TablespaceSpace.

    Used space is not in the statement (apps.targets.oracle.room reads it from its own views): None here,
    unless the row is an older extract's, whose tablespaces.csv carried USED_BYTES (summed DBA_SEGMENTS).
    """
    files = _int_or_none(row["AUTOEXTENSIBLE_FILES"])
    status = row.get("STATUS")
    return TablespaceSpace(
        tablespace_name=str(row["TABLESPACE_NAME"]),
        size_bytes=_int_or_none(row["SIZE_BYTES"]),
        used_bytes=_int_or_none(row.get("USED_BYTES")),
        max_size_bytes=_int_or_none(row["MAX_SIZE_BYTES"]),
        block_size_bytes=_int_or_none(row["BLOCK_SIZE_BYTES"]),
        autoextensible=None if files is None else files > 0,
        offline=None if status is None else str(status).upper() == "OFFLINE",
    )


def data_file(row: dict[str, Any]) -> DataFile:
    """{COLUMN: value} of sql/datafiles.sql -> DataFile (AUTOEXTENSIBLE 'YES'/'NO'; NULL stays unknown)."""
    autoextensible = row.get("AUTOEXTENSIBLE")
    return DataFile(
        tablespace_name=str(row["TABLESPACE_NAME"]),
        file_id=int(row["FILE_ID"]),
        file_name=str(row["FILE_NAME"]),
        size_bytes=_int_or_none(row["SIZE_BYTES"]),
        max_size_bytes=_int_or_none(row.get("MAX_SIZE_BYTES")),
        autoextensible=None if autoextensible is None else str(autoextensible).upper() == "YES",
        file_type=str(row.get("FILE_TYPE") or "DATA").upper(),
    )


@dataclass(frozen=True)
class Usage:
    """One row of DBA_TABLESPACE_USAGE_METRICS, in blocks of its tablespace's block size."""

    used_blocks: int | None
    max_size_blocks: int | None


def _int(value: Any) -> int | None:
    return None if value is None else int(value)


def _text(value: Any) -> str | None:
    return None if value is None else str(value).strip() or None


def usage_rows(rows: Iterable[dict[str, Any]]) -> dict[str, Usage]:
    """{COLUMN: value} rows of tablespace_usage.sql -> Usage by tablespace name."""
    return {str(row["TABLESPACE_NAME"]): Usage(_int(row["USED_BLOCKS"]), _int(row["MAX_SIZE_BLOCKS"]))
            for row in rows}


def free_space_rows(rows: Iterable[dict[str, Any]]) -> dict[str, int | None]:
    """{COLUMN: value} rows of free_space.sql -> free bytes by tablespace name."""
    return {str(row["TABLESPACE_NAME"]): _int(row["FREE_BYTES"]) for row in rows}


def disk_group_rows(rows: Iterable[dict[str, Any]]) -> tuple[DiskGroup, ...]:
    """{COLUMN: value} rows of asm_diskgroups.sql -> DiskGroup, by name; a NULL stays None."""
    groups = [
        DiskGroup(
            name=str(row["NAME"]).strip().upper(), redundancy=_text(row["REDUNDANCY"]), state=_text(row["STATE"]),
            total_mb=_int(row["TOTAL_MB"]), free_mb=_int(row["FREE_MB"]),
            required_mirror_free_mb=_int(row["REQUIRED_MIRROR_FREE_MB"]), usable_file_mb=_int(row["USABLE_FILE_MB"]),
            offline_disks=_int(row["OFFLINE_DISKS"]), allocation_unit_bytes=_int(row["ALLOCATION_UNIT_BYTES"]),
            sector_size_bytes=_int(row["SECTOR_SIZE_BYTES"]), block_size_bytes=_int(row["BLOCK_SIZE_BYTES"]),
            compatibility=_text(row["COMPATIBILITY"]), database_compatibility=_text(row["DATABASE_COMPATIBILITY"]),
        )
        for row in rows
    ]
    return tuple(_mounted_only(group) for group in sorted(groups, key=lambda group: group.name))


def _mounted_only(group: DiskGroup) -> DiskGroup:
    """The view gives 0 for the sizes of a group this instance has not mounted: not a measurement."""
    if group.state is None or group.state.upper() not in ("DISMOUNTED", "UNKNOWN"):
        return group
    return dataclasses.replace(group, total_mb=None, free_mb=None, required_mirror_free_mb=None, usable_file_mb=None)
