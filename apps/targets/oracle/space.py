"""One row of sql/tablespaces.sql as a TablespaceSpace (queries.fetch_tablespaces runs the statement).

The mapping sits here, not in queries.py, which is past the house's 500 lines. By column name, as
queries maps every statement; a NULL stays None (unknown), never 0.
"""

from __future__ import annotations

from typing import Any

from apps.targets.rows import TablespaceSpace


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
