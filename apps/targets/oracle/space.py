"""One row of sql/tablespaces.sql as a TablespaceSpace (queries.fetch_tablespaces runs the statement), and
one of sql/datafiles.sql as a DataFile (queries.fetch_datafiles).

The mapping sits here, not in queries.py, which is past the house's 500 lines. By column name, as
queries maps every statement; a NULL stays None (unknown), never 0.
"""

from __future__ import annotations

from typing import Any

from apps.targets.rows import DataFile, TablespaceSpace


def _int_or_none(value: Any) -> int | None:
    return None if value is None else int(value)


def tablespace_space(row: dict[str, Any]) -> TablespaceSpace:
    """{COLUMN: value} of sql/tablespaces.sql -> TablespaceSpace."""
    files = _int_or_none(row["AUTOEXTENSIBLE_FILES"])
    return TablespaceSpace(
        tablespace_name=str(row["TABLESPACE_NAME"]),
        size_bytes=_int_or_none(row["SIZE_BYTES"]),
        used_bytes=_int_or_none(row["USED_BYTES"]),
        max_size_bytes=_int_or_none(row["MAX_SIZE_BYTES"]),
        block_size_bytes=_int_or_none(row["BLOCK_SIZE_BYTES"]),
        autoextensible=None if files is None else files > 0,
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
