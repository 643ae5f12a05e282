"""The segment page's "SQL driving this segment" card: its statements, why there are none, and whether tuning
one would save more than the move (apps.tiering.moves.sqldrive)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from apps.core.time import day_bounds
from apps.dashboard.selectors import segment_label
from apps.snapshots.models import Segment
from apps.snapshots.sqlstats.selectors import SegmentStatement, segment_statements
from apps.targets.models import Target
from apps.targets.oracle.segment_sql import TOP_STATEMENTS
from apps.tiering.moves.sqldrive import StatementReads, TuningNote, tuning_note

DEFAULT_WINDOW = dt.timedelta(days=7)

SOURCE_WORDS = {
    "ash": ("ASH samples on the segment and AWR's top SQL whose captured plans read it (Diagnostics Pack), "
            "with each statement's AWR figures"),
    "v$sql": "the cursor cache (V$SQL and the plans in V$SQL_PLAN): no pack needed",
}
EMPTY_WORDS = {
    "ash": ("No ASH sample waited on this segment in the window, and none of AWR's top statements by read "
            "requests has it in its captured plan. ASH names a segment only while a session waits on it (User I/O, "
            "Application, Cluster or Concurrency waits), so no statement spent noticeable time reading it."),
    "v$sql": (f"None of the cursor cache's top {TOP_STATEMENTS} statements by read requests has this segment in its "
              "plan, or they have aged out of the shared pool since."),
}
NOT_COLLECTED_WORDS = {
    "report": ("Not collected: an AWR report lists no SQL per segment, and no offline extract imported for this "
               "target carried the SQL files (pack_ash_segment_sql.csv in awr mode, sql_segments.csv in nopack "
               "mode)."),
}


@dataclass(frozen=True)
class SqlCard:
    statements: list[SegmentStatement]
    source: str | None
    source_words: str
    empty: str  # why no statement is listed
    since: dt.datetime
    until: dt.datetime
    note: TuningNote | None


def _window(segment: Segment, current: Any) -> tuple[dt.datetime, dt.datetime]:
    run = getattr(current, "run", None)
    if run is not None and run.window_first_day is not None:
        return day_bounds(run.window_first_day, run.window_last_day)
    # The collection that last saw the segment wrote its SQL rows too: their windows end by then.
    return segment.last_seen_at - DEFAULT_WINDOW, segment.last_seen_at


def segment_sql_card(*, segment: Segment, target: Target, current: Any, latency: dict | None) -> SqlCard:
    """What the card shows for ``segment``; ``current`` is its current recommendation (or None), ``latency``
    the read latency the page prices IO time with ({"ms": ...} or None)."""
    source = target.capabilities.get("segment_sql")
    since, until = _window(segment, current)
    statements = segment_statements(target_id=target.id, segment_id=segment.id, since=since, until=until)
    if source is None:
        empty = NOT_COLLECTED_WORDS.get(target.mode, "Not collected yet: no collection of this target has read SQL.")
    else:
        empty = EMPTY_WORDS.get(source, "No statement found for this segment in the window.")
    note = None
    if statements and current is not None:
        note = tuning_note(
            statements=[StatementReads(s.sql_id, s.read_requests, s.executions, s.full_scan, s.window_s)
                        for s in statements],
            segment_reads_per_day=current.read_requests_per_day,
            read_latency_ms=(latency or {}).get("ms"),
            move_saved_s_per_day=current.io_time_saved_s_per_day,
            segment=segment_label(segment.owner, segment.object_name, segment.subobject_name),
        )
    return SqlCard(statements=statements, source=source, source_words=SOURCE_WORDS.get(source or "", ""),
                   empty=empty, since=since, until=until, note=note)
