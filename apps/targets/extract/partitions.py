"""The extract's partition files: how tables and indexes are partitioned, bounds, subpartitions.

They are the output of the live source's partition statements (apps.targets.oracle.partitions), appended
to the extract later: an extract without them still imports, its partitions unannotated (no parent
partition, partitioning or bound: unknown). Pure: standard library and the row contract only.
"""

from __future__ import annotations

from typing import Any

from apps.targets.oracle import queries
from apps.targets.oracle.partitions import (
    SQL_IND_PARTITION_BOUNDS,
    SQL_PART_KEY_COLUMNS,
    SQL_PART_TABLES,
    SQL_SUBPARTITIONS,
    SQL_TAB_PARTITION_BOUNDS,
    PartitionCatalog,
    fetch_partition_catalog,
)

_BOUNDS = "OWNER! OBJECT_NAME! PARTITION_NAME! PARTITION_POSITION:int HIGH_VALUE_LENGTH:int HIGH_VALUE"
#: File -> column spec (apps.targets.extract.files._cols), as tierscope_extract.sql writes them.
PARTITION_FILE_SPECS: dict[str, str] = {
    "part_tables.csv": "OWNER! OBJECT_NAME! OBJECT_KIND! PARTITIONING_TYPE SUBPARTITIONING_TYPE PARTITION_INTERVAL",
    "part_key_columns.csv": "OWNER! OBJECT_NAME! OBJECT_KIND! KEY_LEVEL! COLUMN_NAME! COLUMN_POSITION:int",
    "tab_partition_bounds.csv": _BOUNDS,
    "ind_partition_bounds.csv": _BOUNDS,
    "subpartitions.csv": "OWNER! OBJECT_NAME! SEGMENT_TYPE! SUBPARTITION_NAME! PARTITION_NAME! TABLE_SUBPARTITION_NAME",
}
#: Text longer than a name: an interval expression (VARCHAR2(1000)), a key column (VARCHAR2(4000)) and a
#: bound (a LONG; the PL/SQL spool reads up to 32760 bytes; the mapping keeps up to BOUND_MAX_CHARS).
PARTITION_TEXT_MAX_CHARS: dict[str, int] = {"PARTITION_INTERVAL": 1000, "COLUMN_NAME": 4000, "HIGH_VALUE": 32760}

_STATEMENT_FILES = {
    SQL_PART_TABLES.noun: "part_tables.csv", SQL_PART_KEY_COLUMNS.noun: "part_key_columns.csv",
    SQL_TAB_PARTITION_BOUNDS.noun: "tab_partition_bounds.csv",
    SQL_IND_PARTITION_BOUNDS.noun: "ind_partition_bounds.csv", SQL_SUBPARTITIONS.noun: "subpartitions.csv",
}


class _StatementReplay:
    """A cursor that answers each partition statement with the rows of its file (queries.Cursor)."""

    def __init__(self, cursors: dict[str, Any]) -> None:
        self._cursors = cursors
        self._by_text = {queries._read_sql(stem): stem for stem in _STATEMENT_FILES}
        self._current: Any = None
        self.description: Any = None

    def execute(self, statement: str, parameters: dict[str, Any] | None = None) -> None:
        self._current = self._cursors[_STATEMENT_FILES[self._by_text[statement]]]
        self.description = self._current.description

    def fetchall(self) -> list[tuple[Any, ...]]:
        return self._current.fetchall()


def extract_partition_catalog(cursor_for: Any, present: set[str]) -> PartitionCatalog:
    """The partition catalog of an extract; empty (nothing annotated) when it has none of the files.
    ``cursor_for(name)`` replays one file's typed rows (a missing one as no rows)."""
    if not present & set(PARTITION_FILE_SPECS):
        return PartitionCatalog()
    cursor = _StatementReplay({name: cursor_for(name) for name in PARTITION_FILE_SPECS})
    return fetch_partition_catalog(cursor, mode="nopack")
