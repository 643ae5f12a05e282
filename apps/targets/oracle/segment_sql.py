"""Which SQL drives each segment, read live (sql/pack_ash_segment_sql.sql, pack_ash_recent_sql.sql,
pack_sqlstat_segments.sql, sql_segments.sql) and mapped to apps.targets.rows.SegmentSql.

awr mode counts ASH samples on each segment: AWR's samples (DBA_HIST_ACTIVE_SESS_HISTORY) over the
snapshots this collection read, with the statements' DBA_HIST_SQLSTAT figures, and the in-memory samples
(GV$ACTIVE_SESSION_HISTORY) since AWR's newest snapshot, marked provisional; and AWR's top statements by
read requests (DBA_HIST_SQLSTAT) per object their captured plans read (DBA_HIST_SQL_PLAN). nopack mode reads the cursor
cache: the statements with most read requests (GV$SQL) and the objects their plans read (GV$SQL_PLAN).
Every statement aggregates on the server and returns at most a few rows per segment.

The mapping functions take rows as {COLUMN: value}, so the offline extract reader maps its CSV rows with
them too. Pure apart from the cursor: no Django.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

from apps.targets.oracle import queries
from apps.targets.oracle.queries import Cursor, Statement, to_utc
from apps.targets.rows import SQL_TEXT_CHARS, SegmentSql, Snapshot

SQL_PACK_ASH_SEGMENT_SQL = Statement("pack_ash_segment_sql")
SQL_PACK_ASH_RECENT_SQL = Statement("pack_ash_recent_sql")
SQL_PACK_SQLSTAT_SEGMENTS = Statement("pack_sqlstat_segments")
SQL_SQL_SEGMENTS = Statement("sql_segments")

#: Statements kept per segment and segments per window (ASH); statements read from the cursor cache.
TOP_SQL_PER_SEGMENT = 5
TOP_SEGMENTS = 300
TOP_STATEMENTS = 200
#: One AWR ASH row stands for ten seconds of database time (every tenth in-memory sample); an in-memory
#: sample for one.
AWR_SAMPLE_S = 10.0
MEMORY_SAMPLE_S = 1.0
_LOAD_TIME_FORMAT = "%Y-%m-%d/%H:%M:%S"


def _int(value: Any) -> int | None:
    return None if value is None or value == "" else int(value)


def _text(value: Any) -> str:
    """SQL text cut to SQL_TEXT_CHARS; a LOB (fetched as such) is read up to that length."""
    if value is None:
        return ""
    if hasattr(value, "read"):
        value = value.read(1, SQL_TEXT_CHARS)
    return str(value)[:SQL_TEXT_CHARS]


def ash_attributed_reads(*, read_requests: int | None, samples: int | None, sql_samples: int | None) -> int | None:
    """The statement's read requests times its share of IO-wait samples that were on this segment.

    >>> ash_attributed_reads(read_requests=1000, samples=30, sql_samples=40)
    750
    >>> ash_attributed_reads(read_requests=None, samples=30, sql_samples=40) is None
    True
    """
    if read_requests is None or not samples or not sql_samples:
        return None
    return round(read_requests * min(1.0, samples / sql_samples))


def ash_segment_sql(row: dict[str, Any], *, begin_at: dt.datetime, end_at: dt.datetime, recent: bool) -> SegmentSql:
    """One row of pack_ash_segment_sql.sql (or pack_ash_recent_sql.sql, ``recent``) as a SegmentSql."""
    samples, sql_samples = _int(row.get("SAMPLES")), _int(row.get("SQL_SAMPLES"))
    statement_reads = _int(row.get("READ_REQUESTS"))
    elapsed_us = _int(row.get("ELAPSED_US"))
    return SegmentSql(
        obj_number=int(row["OBJ_NUMBER"]), sql_id=str(row["SQL_ID"]), source="ash", begin_at=begin_at, end_at=end_at,
        plan_hash_value=_int(row.get("PLAN_HASH_VALUE")), samples=samples,
        sample_s=MEMORY_SAMPLE_S if recent else AWR_SAMPLE_S,
        read_requests=ash_attributed_reads(read_requests=statement_reads, samples=samples, sql_samples=sql_samples),
        statement_read_requests=statement_reads, executions=_int(row.get("EXECUTIONS")),
        elapsed_s=None if elapsed_us is None else elapsed_us / 1e6, text=_text(row.get("SQL_TEXT")), recent=recent,
    )


def cursor_cache_segment_sql(row: dict[str, Any], *, utc_offset_min: int, now: dt.datetime) -> SegmentSql:
    """One row of sql_segments.sql as a SegmentSql: the window runs from the statement's first load to now."""
    loaded = row.get("FIRST_LOAD_TIME")
    begin_at = now
    if loaded:
        loaded_at = loaded if isinstance(loaded, dt.datetime) else dt.datetime.strptime(str(loaded), _LOAD_TIME_FORMAT)
        begin_at = min(now, to_utc(loaded_at, utc_offset_min) or now)
    return plan_segment_sql(row, source="v$sql", begin_at=begin_at, end_at=now)


def plan_segment_sql(row: dict[str, Any], *, source: str, begin_at: dt.datetime, end_at: dt.datetime) -> SegmentSql:
    """One row of a statement-and-plan query (sql_segments.sql, pack_sqlstat_segments.sql) as a SegmentSql.

    Its read requests are the segment's only when its plan reads no other object; otherwise they are
    shared with the others in a way neither the cursor cache nor AWR tells (None).
    """
    reads = _int(row.get("READ_REQUESTS"))
    objects = _int(row.get("PLAN_OBJECTS"))
    elapsed_us = _int(row.get("ELAPSED_US"))
    full_scan = _int(row.get("FULL_SCAN"))
    return SegmentSql(
        obj_number=int(row["OBJ_NUMBER"]), sql_id=str(row["SQL_ID"]), source=source, begin_at=begin_at, end_at=end_at,
        object_owner=str(row.get("OBJECT_OWNER") or ""), object_name=str(row.get("OBJECT_NAME") or ""),
        plan_hash_value=_int(row.get("PLAN_HASH_VALUE")), read_requests=reads if objects == 1 else None,
        statement_read_requests=reads, executions=_int(row.get("EXECUTIONS")),
        elapsed_s=None if elapsed_us is None else elapsed_us / 1e6,
        full_scan=None if full_scan is None else full_scan == 1, plan_objects=objects, text=_text(row.get("SQL_TEXT")),
    )


def fetch_pack_ash_segment_sql(cursor: Cursor, *, mode: str, dbid: int, snapshots: Sequence[Snapshot]) -> tuple[SegmentSql, ...]:
    """Top SQL per segment from AWR's ASH over ``snapshots`` (those this collection read); () without any."""
    if not snapshots:
        return ()
    binds = {"dbid": dbid, "after_snap_id": min(s.snap_id for s in snapshots) - 1,
             "through_snap_id": max(s.snap_id for s in snapshots), "top_sql": TOP_SQL_PER_SEGMENT,
             "top_segments": TOP_SEGMENTS}
    begin_at, end_at = min(s.begin_at for s in snapshots), max(s.end_at for s in snapshots)
    return tuple(ash_segment_sql(row, begin_at=begin_at, end_at=end_at, recent=False)
                 for row in queries._run(cursor, SQL_PACK_ASH_SEGMENT_SQL, mode=mode, binds=binds))


def fetch_pack_sqlstat_segments(cursor: Cursor, *, mode: str, dbid: int,
                                snapshots: Sequence[Snapshot]) -> tuple[SegmentSql, ...]:
    """AWR's top statements by read requests over ``snapshots``, per object their captured plans read."""
    if not snapshots:
        return ()
    binds = {"dbid": dbid, "after_snap_id": min(s.snap_id for s in snapshots) - 1,
             "through_snap_id": max(s.snap_id for s in snapshots), "top_statements": TOP_STATEMENTS}
    begin_at, end_at = min(s.begin_at for s in snapshots), max(s.end_at for s in snapshots)
    return tuple(plan_segment_sql(row, source="sqlstat", begin_at=begin_at, end_at=end_at)
                 for row in queries._run(cursor, SQL_PACK_SQLSTAT_SEGMENTS, mode=mode, binds=binds))


def fetch_pack_ash_recent_sql(cursor: Cursor, *, mode: str, dbid: int, utc_offset_min: int) -> tuple[SegmentSql, ...]:
    """Top SQL per segment from in-memory ASH since AWR's newest snapshot (provisional)."""
    rows = queries._run(cursor, SQL_PACK_ASH_RECENT_SQL, mode=mode,
                        binds={"dbid": dbid, "top_sql": TOP_SQL_PER_SEGMENT, "top_segments": TOP_SEGMENTS})
    if not rows:
        return ()
    begin_at = to_utc(rows[0]["SINCE_TIME"], utc_offset_min)
    end_at = to_utc(rows[0]["LAST_SAMPLE_TIME"], utc_offset_min)
    if begin_at is None or end_at is None:
        raise ValueError("pack_ash_recent_sql.sql returned rows without SINCE_TIME / LAST_SAMPLE_TIME")
    return tuple(ash_segment_sql(row, begin_at=begin_at, end_at=end_at, recent=True) for row in rows)


def fetch_sql_segments(cursor: Cursor, *, mode: str, utc_offset_min: int, now: dt.datetime) -> tuple[SegmentSql, ...]:
    """The cursor cache's top statements by read requests, per object their plans read."""
    rows = queries._run(cursor, SQL_SQL_SEGMENTS, mode=mode, binds={"top_statements": TOP_STATEMENTS})
    return tuple(cursor_cache_segment_sql(row, utc_offset_min=utc_offset_min, now=now) for row in rows)


def segment_sql_read(cursor: Cursor, *, mode: str, dbid: int, utc_offset_min: int, snapshots: Sequence[Snapshot],
                     now: dt.datetime) -> tuple[tuple[SegmentSql, ...], str]:
    """What the live source reads in ``mode``: (rows, what was read: "ash" or "v$sql")."""
    if mode == "awr":
        rows = fetch_pack_ash_segment_sql(cursor, mode=mode, dbid=dbid, snapshots=snapshots)
        rows += fetch_pack_sqlstat_segments(cursor, mode=mode, dbid=dbid, snapshots=snapshots)
        return rows + fetch_pack_ash_recent_sql(cursor, mode=mode, dbid=dbid, utc_offset_min=utc_offset_min), "ash"
    return fetch_sql_segments(cursor, mode=mode, utc_offset_min=utc_offset_min, now=now), "v$sql"
