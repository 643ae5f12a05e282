"""Reading the top SQL of a segment (SegmentSql) for a window."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

from apps.snapshots.sqlstats.models import SegmentSql


@dataclass(frozen=True)
class SegmentStatement:
    """One statement's figures on one segment over the stored windows of a period (None: unknown)."""

    sql_id: str
    source: str
    plan_hash_value: int | None
    samples: int | None
    db_time_s: float | None  # ASH samples x the time each stands for
    read_requests: int | None  # attributed to the segment
    statement_read_requests: int | None
    executions: int | None
    elapsed_s: float | None
    full_scan: bool | None
    plan_objects: int | None
    text: str
    window_s: float  # the time the figures cover
    provisional: bool  # includes in-memory ASH samples AWR does not hold yet


_Number = TypeVar("_Number", int, float)


def _sum(values: Sequence[_Number | None]) -> _Number | None:
    known = [value for value in values if value is not None]
    return sum(known) if values and len(known) == len(values) else None


def _covered_s(windows: set[tuple[dt.datetime, dt.datetime]], since: dt.datetime, until: dt.datetime) -> float:
    """Seconds of [since, until) the windows cover (overlaps counted once)."""
    covered, reach = 0.0, since
    for begin, end in sorted(windows):
        begin, end = max(begin, reach), min(end, until)
        if end > begin:
            covered += (end - begin).total_seconds()
            reach = end
    return covered


def ash_covered_s(*, target_id: int, since: dt.datetime, until: dt.datetime) -> float:
    """Seconds of [since, until) the target's stored AWR windows (ASH and AWR's plans) cover: what a
    statement's figures on a segment are spread over, whether or not it ranked on the segment in every one."""
    windows = set(SegmentSql.objects.filter(target_id=target_id, source__in=("ash", "sqlstat"), end_at__gt=since,
                                            begin_at__lt=until)
                  .values_list("begin_at", "end_at").distinct())
    return _covered_s(windows, since, until)


def segment_statements(*, target_id: int, segment_id: int, since: dt.datetime,
                       until: dt.datetime) -> list[SegmentStatement]:
    """The segment's statements, most samples (ASH) or reads (cursor cache) first.

    ASH and AWR-plan ("sqlstat") windows inside [since, until) are summed per statement (they do not overlap:
    AWR's replace the provisional ones); the cursor cache is cumulative, so only the latest collection's
    reading counts.
    """
    rows = list(SegmentSql.objects.filter(segment_id=segment_id, end_at__gt=since, begin_at__lt=until)
                .order_by("-collected_at"))
    ash_s = ash_covered_s(target_id=target_id, since=since, until=until) if any(
        r.source != "v$sql" for r in rows) else 0.0
    latest_cache = next((r.collected_at for r in rows if r.source != "ash"), None)
    grouped: dict[tuple[str, str], list[SegmentSql]] = defaultdict(list)
    for row in rows:
        if row.source != "ash" and row.collected_at != latest_cache:
            continue
        grouped[(row.source, row.sql_id)].append(row)
    # A statement ASH caught on the segment is listed once, with its samples: AWR's plan-based row of the same
    # SQL_ID says less.
    by_ash = {sql_id for source, sql_id in grouped if source == "ash"}
    statements = []
    for (source, sql_id), group in grouped.items():
        if source == "sqlstat" and sql_id in by_ash:
            continue
        db_times = [None if r.samples is None or r.sample_s is None else r.samples * r.sample_s for r in group]
        statements.append(SegmentStatement(
            sql_id=sql_id, source=source, plan_hash_value=group[0].plan_hash_value,
            samples=_sum([r.samples for r in group]), db_time_s=_sum(db_times),
            read_requests=_sum([r.read_requests for r in group]),
            statement_read_requests=_sum([r.statement_read_requests for r in group]),
            executions=_sum([r.executions for r in group]), elapsed_s=_sum([r.elapsed_s for r in group]),
            full_scan=True if any(r.full_scan for r in group) else group[0].full_scan,
            plan_objects=group[0].plan_objects, text=next((r.text for r in group if r.text), ""),
            window_s=ash_s if source != "v$sql" else _covered_s({(r.begin_at, r.end_at) for r in group}, since, until),
            provisional=any(r.recent for r in group),
        ))
    statements.sort(key=lambda s: (-(s.db_time_s or 0), -(s.read_requests or s.statement_read_requests or 0)))
    return statements
