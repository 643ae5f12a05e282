"""The SQL that drives each segment, as an offline extract carries it (the CSVs of pack_ash_segment_sql.sql,
pack_ash_recent_sql.sql, pack_sqlstat_segments.sql and sql_segments.sql), mapped by the live source's own row mapping.

The files are optional: an extract made by a script older than them, or one whose SQL*Plus session could not
read the views, has none, and the target then shows "not collected", never an error. An awr-mode extract is
read through ASH (its window: the snapshots of the extract), a nopack one through the cursor cache (from each
statement's first load to the time the extract sampled the instances).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from typing import Any

from apps.targets.oracle.queries import to_utc
from apps.targets.oracle.segment_sql import ash_segment_sql, cursor_cache_segment_sql, plan_segment_sql
from apps.targets.rows import SegmentSql, Snapshot

ASH_FILE = "pack_ash_segment_sql.csv"
ASH_RECENT_FILE = "pack_ash_recent_sql.csv"
SQLSTAT_FILE = "pack_sqlstat_segments.csv"
CURSOR_CACHE_FILE = "sql_segments.csv"

#: Columns of each file, in files.FILES' notation (NAME:kind, ! = required), as tierscope_extract.sql writes them.
FILE_COLUMNS: dict[str, str] = {
    ASH_FILE: ("OBJ_NUMBER:int! SQL_ID! PLAN_HASH_VALUE:int SAMPLES:int SQL_SAMPLES:int EXECUTIONS:int "
               "READ_REQUESTS:int ELAPSED_US:int SQL_TEXT"),
    ASH_RECENT_FILE: ("OBJ_NUMBER:int! SQL_ID! PLAN_HASH_VALUE:int SAMPLES:int SQL_SAMPLES:int "
                      "SINCE_TIME:datetime! LAST_SAMPLE_TIME:datetime! SQL_TEXT"),
    SQLSTAT_FILE: ("OBJ_NUMBER:int! OBJECT_OWNER OBJECT_NAME SQL_ID! PLAN_HASH_VALUE:int EXECUTIONS:int "
                   "READ_REQUESTS:int ELAPSED_US:int FULL_SCAN:int PLAN_OBJECTS:int SQL_TEXT"),
    CURSOR_CACHE_FILE: ("OBJ_NUMBER:int! OBJECT_OWNER OBJECT_NAME SQL_ID! PLAN_HASH_VALUE:int EXECUTIONS:int "
                        "READ_REQUESTS:int DISK_READS_BLOCKS:int ELAPSED_US:int FIRST_LOAD_TIME SQL_TEXT "
                        "FULL_SCAN:int PLAN_OBJECTS:int"),
}


def extract_segment_sql(rows: Mapping[str, Sequence[dict[str, Any]]], *, pack: bool, snapshots: Sequence[Snapshot],
                        utc_offset_min: int, sampled_at: dt.datetime | None) -> tuple[tuple[SegmentSql, ...], str | None]:
    """(rows, what was read: "ash", "v$sql", or None when the extract carries no SQL file for its mode)."""
    if pack and ASH_FILE in rows:
        result: list[SegmentSql] = []
        if snapshots:
            begin_at, end_at = min(s.begin_at for s in snapshots), max(s.end_at for s in snapshots)
            result += [ash_segment_sql(row, begin_at=begin_at, end_at=end_at, recent=False) for row in rows[ASH_FILE]]
            result += [plan_segment_sql(row, source="sqlstat", begin_at=begin_at, end_at=end_at)
                       for row in rows.get(SQLSTAT_FILE, [])]
        for row in rows.get(ASH_RECENT_FILE, []):
            since, last = (to_utc(row[name], utc_offset_min) for name in ("SINCE_TIME", "LAST_SAMPLE_TIME"))
            assert since is not None and last is not None  # required columns (datetime!): never read empty
            result.append(ash_segment_sql(row, begin_at=since, end_at=last, recent=True))
        return tuple(result), "ash"
    if not pack and CURSOR_CACHE_FILE in rows and sampled_at is not None:
        return tuple(cursor_cache_segment_sql(row, utc_offset_min=utc_offset_min, now=sampled_at)
                     for row in rows[CURSOR_CACHE_FILE]), "v$sql"
    return (), None
