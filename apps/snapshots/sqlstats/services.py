"""Storing the top SQL of each segment that a collection brought (apps.targets.rows.SegmentSql)."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import replace

from django.db import transaction
from django.db.models import Max, Q

from apps.snapshots.models import Segment
from apps.snapshots.sqlstats.models import SegmentSql
from apps.targets.models import Target
from apps.targets.rows import SEGMENT_SQL_SOURCES, Collection, SegmentKey
from apps.targets.rows import SegmentSql as SegmentSqlRow

#: Statements kept per segment and window: the page lists the few that matter, and a collection of a
#: busy database names hundreds of statements.
TOP_SQL_PER_SEGMENT = 5


def _rank(row: SegmentSqlRow) -> tuple[int, int, int]:
    return (-(row.samples or 0), -(row.read_requests or 0), -(row.statement_read_requests or 0))


def segment_sql_assign(*, rows: Iterable[SegmentSqlRow], segments: Sequence[tuple[int, SegmentKey, int | None]]
                       ) -> dict[int, list[SegmentSqlRow]]:
    """Segment id -> its rows, best first, at most TOP_SQL_PER_SEGMENT per window.

    ``segments`` are (id, key, obj_number). A row goes to the segment whose OBJECT_ID it names; a plan row
    naming a partitioned table (no segment has its OBJECT_ID) goes to every partition of that table, with
    no reads attributed: the cursor cache does not say which partitions the statement read.
    """
    by_key = {key: seg_id for seg_id, key, _obj in segments}
    by_obj = {obj: seg_id for seg_id, _key, obj in segments if obj is not None}
    by_name: dict[tuple[str, str], list[int]] = defaultdict(list)
    for seg_id, key, _obj in segments:
        by_name[(key.owner, key.object_name)].append(seg_id)
    grouped: dict[tuple[int, dt.datetime, dt.datetime], list[SegmentSqlRow]] = defaultdict(list)
    for row in rows:
        if row.source not in SEGMENT_SQL_SOURCES:
            raise ValueError(f"segment SQL row {row.sql_id}: source {row.source!r} is not one of "
                             f"{', '.join(SEGMENT_SQL_SOURCES)}")
        found = by_key.get(row.key) if row.key is not None else by_obj.get(row.obj_number)
        if found is not None:
            grouped[(found, row.begin_at, row.end_at)].append(row)
            continue
        for partition_id in by_name.get((row.object_owner, row.object_name), ()):
            grouped[(partition_id, row.begin_at, row.end_at)].append(replace(row, read_requests=None))
    result: dict[int, list[SegmentSqlRow]] = defaultdict(list)
    for (seg_id, _begin, _end), window_rows in grouped.items():
        unique = {row.sql_id: row for row in sorted(window_rows, key=_rank, reverse=True)}
        result[seg_id].extend(sorted(unique.values(), key=_rank)[:TOP_SQL_PER_SEGMENT])
    return dict(result)


def segment_sql_store(*, target: Target, collection: Collection, segment_ids: dict[SegmentKey, int],
                      collected_at: dt.datetime) -> int:
    """Write the collection's top SQL per segment (re-runs add nothing); returns the rows written.

    AWR's window replaces the provisional in-memory rows of the time it covers; a new in-memory read replaces
    the previous one. The target's capabilities record what it read (``segment_sql``: "ash", "v$sql"), so
    the page can tell "not collected" from "nothing found".
    """
    if collection.segment_sql_source is None:
        return 0
    rows = collection.segment_sql
    # Only the segments the rows can name: by OBJECT_ID, or by the table a plan names.
    named = Q(obj_number__in={row.obj_number for row in rows}) | Q(
        object_name__in={row.object_name for row in rows if row.object_name})
    stored = Segment.objects.filter(named, target=target).values_list(
        "id", "owner", "object_name", "subobject_name", "object_type", "container", "obj_number") if rows else []
    segments = [(row[0], SegmentKey(*row[1:6]), row[6]) for row in stored]
    keyed = {row.key for row in rows if row.key is not None}
    segments += [(segment_ids[key], key, None) for key in keyed if key in segment_ids]
    assigned = segment_sql_assign(rows=collection.segment_sql, segments=segments)
    objects = [
        SegmentSql(target=target, segment_id=seg_id, collected_at=collected_at, source=row.source, recent=row.recent,
                   begin_at=row.begin_at, end_at=row.end_at, sql_id=row.sql_id, plan_hash_value=row.plan_hash_value,
                   samples=row.samples, sample_s=row.sample_s, read_requests=row.read_requests,
                   statement_read_requests=row.statement_read_requests, executions=row.executions,
                   elapsed_s=row.elapsed_s, full_scan=row.full_scan, plan_objects=row.plan_objects, text=row.text)
        for seg_id, rows in assigned.items() for row in rows
    ]
    with transaction.atomic():
        _superseded(target.id, collection.segment_sql).delete()
        written = SegmentSql.objects.bulk_create(objects, ignore_conflicts=True)
        if target.capabilities.get("segment_sql") != collection.segment_sql_source:
            target.capabilities = {**target.capabilities, "segment_sql": collection.segment_sql_source}
            target.save(update_fields=["capabilities"])
    return len(written)


def _superseded(target_id: int, rows: Sequence[SegmentSqlRow]):
    """Stored provisional (in-memory ASH) rows that ``rows`` replace."""
    recent = SegmentSql.objects.filter(target_id=target_id, source="ash", recent=True)
    overlap = Q(pk__in=[])
    for row in rows:
        if row.source == "ash" and row.recent:
            return recent  # a new in-memory read covers everything since AWR's newest snapshot
        if row.source == "ash":
            overlap |= Q(begin_at__lt=row.end_at, end_at__gt=row.begin_at)
    return recent.filter(overlap)


def segment_sql_prune(*, keep: dt.timedelta) -> int:
    """Delete rows whose window ended more than ``keep`` before each target's newest one: the same horizon as
    the raw statistics they explain (RETENTION_DAYS), so a segment's page never names SQL for IO it no
    longer shows."""
    deleted = 0
    for row in SegmentSql.objects.values("target_id").annotate(latest=Max("end_at")).order_by():
        count, _ = SegmentSql.objects.filter(target_id=row["target_id"], end_at__lt=row["latest"] - keep).delete()
        deleted += count
    return deleted
