"""Segments seen moving between tablespaces: detected while a collection is stored, or said by a plan.

A collection shows where each segment was at each of its snapshots (every
per-snapshot row carries the segment's tablespace) and where DBA_SEGMENTS
lists it now. :func:`place_changes` reads those observations in time order,
from where the segment was before them, and :func:`segment_moves_record`
stores each change as a :class:`~apps.snapshots.models.SegmentMove`, in the
transaction that upserts the segments (apps.snapshots.store.segments_upsert),
so a segment's stored tablespace and its moves never disagree.

Where a segment was before a collection: after its latest collected move at
or before the first observation (that move's tablespace), or before its
earliest move after it (that move's origin); with no move, the tablespace
stored on the segment, unless the collection's snapshots are older than the
target's newest (an older report imported late: then only the changes inside
the collection count, nothing is guessed at its edge).

Idempotent: snapshots already stored are not observations again, a move is
unique by (segment, tablespace, time), and a change seen earlier than the move
recorded for it (a listing saw it first, a snapshot then shows it an hour
earlier) moves that move's time back rather than adding one.
"""

from __future__ import annotations

import datetime as dt
import operator
from collections.abc import Sequence
from dataclasses import dataclass

from django.db.models import Max, Q
from django.utils import timezone

from apps.core.config import get_config
from apps.snapshots.models import Segment, SegmentMove, Snapshot
from apps.targets.rows import Collection, SegmentKey


@dataclass(frozen=True)
class PlaceChange:
    """Segment ``key`` was first seen on ``to_tablespace`` at ``moved_at``, after ``from_tablespace``."""

    key: SegmentKey
    from_tablespace: str
    to_tablespace: str
    moved_at: dt.datetime


_KEY = operator.attrgetter("key")
_TABLESPACE = operator.attrgetter("tablespace_name")
#: (time, tablespace) observations of one segment, in time order, repeats dropped.
Runs = dict[SegmentKey, list[tuple[dt.datetime, str]]]


def observed_places(collection: Collection, *, seen_at: dt.datetime, stored: set[tuple[int, int, int]]) -> Runs:
    """Where each segment was seen: at the begin of every snapshot not yet stored (``stored``: their
    (dbid, instance, snap_id)) whose row lists it, and at ``seen_at`` where DBA_SEGMENTS lists it.

    A snapshot that lists the same segments in the same places as the one before it is passed over by
    two tuple comparisons (in C): 168 hourly snapshots of 2,000 segments took 0.3 s row by row, 0.01 s so.
    One snapshot's rows are read at a time (an extract's lie on disk until then: apps.targets.extract.spill).
    """
    events: list[tuple[dt.datetime, Sequence]] = [
        (snap.begin_at, snap.segment_stats)
        for snap in collection.snapshots if (snap.dbid, snap.instance_number, snap.snap_id) not in stored
    ]
    if collection.segments:
        events.append((seen_at, collection.segments))
    runs: Runs = {}
    current: dict[SegmentKey, str] = {}  # the latest place seen of each segment, "" included
    previous: tuple[tuple, tuple] = ((), ())
    for at, rows in sorted(events, key=lambda event: event[0]):
        rows = list(rows)
        keys, tablespaces = tuple(map(_KEY, rows)), tuple(map(_TABLESPACE, rows))
        if (keys, tablespaces) == previous:
            continue
        previous = (keys, tablespaces)
        for key, tablespace in zip(keys, tablespaces):
            if current.get(key) == tablespace:
                continue
            current[key] = tablespace
            if not tablespace:
                continue
            run = runs.get(key)
            if run is None:
                runs[key] = [(at, tablespace)]
            elif run[-1][1] != tablespace:
                run.append((at, tablespace))
    return runs


def place_changes(runs: Runs, *, baseline: dict[SegmentKey, str | None]) -> list[PlaceChange]:
    """Every change of tablespace in ``runs``, each segment's ``baseline`` (where it was before them, None:
    unknown) first.

    >>> t = dt.datetime(2026, 1, 1, tzinfo=dt.timezone.utc)
    >>> key = SegmentKey("SOE", "T", "", "TABLE")
    >>> [(c.from_tablespace, c.to_tablespace) for c in place_changes({key: [(t, "A"), (t, "B")]}, baseline={key: "A"})]
    [('A', 'B')]
    >>> place_changes({key: [(t, "B")]}, baseline={key: None})
    []
    """
    changes = []
    for key, run in runs.items():
        before = baseline.get(key)
        for at, tablespace in run:
            if before is not None and before != tablespace:
                changes.append(PlaceChange(key, before, tablespace, at))
            before = tablespace
    return changes


def collection_place_changes(*, target_id: int, collection: Collection, seen_at: dt.datetime,
                             stored_places: dict[SegmentKey, str]) -> list[PlaceChange]:
    """The moves a collection shows, before its segments are upserted (``stored_places``: the tablespace
    each known segment is stored with now; a segment absent is new or not seen lately)."""
    stored = _stored_snapshot_keys(target_id, collection)
    runs = observed_places(collection, seen_at=seen_at, stored=stored)
    if not runs:
        return []
    history = _collected_moves(target_id)
    newest = Snapshot.objects.filter(target_id=target_id).aggregate(newest=Max("end_at"))["newest"]
    missing = [key for key in runs if key not in stored_places and key not in history]
    if missing:
        stored_places = {**stored_places, **_stored_tablespaces(target_id, missing)}
    baseline: dict[SegmentKey, str | None] = {}
    for key, run in runs.items():
        first_at = run[0][0]
        moves = history.get(key, [])
        earlier = [move for move in moves if move[0] <= first_at]
        later = [move for move in moves if move[0] > first_at]
        if earlier:
            baseline[key] = earlier[-1][2]
        elif later:
            baseline[key] = later[0][1]
        elif newest is not None and first_at < newest:
            baseline[key] = None  # older than what is stored: the segment's stored place is not its place then
        else:
            baseline[key] = stored_places.get(key) or None
    return place_changes(runs, baseline=baseline)


def segment_moves_record(*, target_id: int, changes: list[PlaceChange], segment_ids: dict[SegmentKey, int],
                         now: dt.datetime | None = None) -> int:
    """Store collected moves; returns how many were added. A move already recorded is left as it is (or
    its time moved back when seen earlier); a plan's move of the same segment to the same tablespace is
    taken over (one row, its step kept)."""
    now = now or timezone.now()
    added = 0
    for change in changes:
        segment_id = segment_ids.get(change.key)
        if segment_id is None:
            continue
        mine = SegmentMove.objects.filter(segment_id=segment_id, to_tablespace=change.to_tablespace)
        if mine.filter(moved_at=change.moved_at).exists():
            continue
        later = (SegmentMove.objects.filter(segment_id=segment_id, source=SegmentMove.Source.COLLECTED,
                                            moved_at__gt=change.moved_at).order_by("moved_at").first())
        if later is not None and (later.from_tablespace, later.to_tablespace) == (change.from_tablespace,
                                                                                  change.to_tablespace):
            later.moved_at = change.moved_at
            later.save(update_fields=["moved_at"])
            continue
        planned = mine.filter(source=SegmentMove.Source.PLAN).order_by("-moved_at").first()
        if planned is not None:
            planned.source, planned.from_tablespace, planned.moved_at = (
                SegmentMove.Source.COLLECTED, change.from_tablespace, change.moved_at)
            planned.save(update_fields=["source", "from_tablespace", "moved_at"])
            continue
        SegmentMove.objects.create(target_id=target_id, segment_id=segment_id,
                                   from_tablespace=change.from_tablespace, to_tablespace=change.to_tablespace,
                                   moved_at=change.moved_at, source=SegmentMove.Source.COLLECTED, detected_at=now)
        added += 1
    return added


@dataclass(frozen=True)
class PlannedMove:
    """A plan's move step marked executed: its segment, from and to tablespaces, and step id."""

    segment_id: int
    from_tablespace: str
    to_tablespace: str
    plan_step_id: int


def segment_moves_planned(*, target_id: int, planned: Sequence[PlannedMove], executed_at: dt.datetime,
                          since: dt.datetime | None) -> int:
    """A plan's move steps marked executed, in three queries whatever their number: each is linked to the
    latest collected move of its segment to its tablespace seen since ``since`` (the plan's approval) and not
    yet linked, else recorded as planned at ``executed_at`` (the next collection that sees it takes the row
    over; one already recorded there is kept). Returns how many were linked or recorded."""
    if not planned:
        return 0
    seen = SegmentMove.objects.filter(segment_id__in={p.segment_id for p in planned},
                                      source=SegmentMove.Source.COLLECTED, plan_step_id__isnull=True)
    if since is not None:
        seen = seen.filter(moved_at__gte=since)
    latest: dict[tuple[int, str], SegmentMove] = {}
    for move in seen.order_by("moved_at"):
        latest[(move.segment_id, move.to_tablespace)] = move  # the last one wins: the latest
    linked: list[SegmentMove] = []
    recorded: list[SegmentMove] = []
    for step in planned:
        collected = latest.pop((step.segment_id, step.to_tablespace), None)
        if collected is not None:
            collected.plan_step_id = step.plan_step_id
            linked.append(collected)
        else:
            recorded.append(SegmentMove(
                target_id=target_id, segment_id=step.segment_id, from_tablespace=step.from_tablespace,
                to_tablespace=step.to_tablespace, moved_at=executed_at, source=SegmentMove.Source.PLAN,
                plan_step_id=step.plan_step_id, detected_at=executed_at))
    batch_rows = get_config()["MOVES_BATCH_ROWS"]
    SegmentMove.objects.bulk_update(linked, ["plan_step_id"], batch_size=batch_rows)
    SegmentMove.objects.bulk_create(recorded, ignore_conflicts=True, batch_size=batch_rows)
    return len(linked) + len(recorded)


def _stored_snapshot_keys(target_id: int, collection: Collection) -> set[tuple[int, int, int]]:
    if not collection.snapshots:
        return set()
    snap_ids = {snap.snap_id for snap in collection.snapshots}
    dbids = {snap.dbid for snap in collection.snapshots}
    rows = (Snapshot.objects.filter(target_id=target_id, dbid__in=dbids, snap_id__in=snap_ids)
            .exclude(kind="sample").values_list("dbid", "instance_number", "snap_id"))
    return set(rows)


def _collected_moves(target_id: int) -> dict[SegmentKey, list[tuple[dt.datetime, str, str]]]:
    """A target's collected moves by segment key: (moved_at, from, to), oldest first (a target has few)."""
    rows = (SegmentMove.objects.filter(target_id=target_id, source=SegmentMove.Source.COLLECTED)
            .order_by("moved_at").values_list("segment__owner", "segment__object_name", "segment__subobject_name",
                                              "segment__object_type", "segment__container", "moved_at", "from_tablespace",
                                              "to_tablespace"))
    history: dict[SegmentKey, list[tuple[dt.datetime, str, str]]] = {}
    for owner, name, sub, kind, container, at, source, destination in rows:
        history.setdefault(SegmentKey(owner, name, sub, kind, container), []).append((at, source, destination))
    return history


def _stored_tablespaces(target_id: int, keys: list[SegmentKey]) -> dict[SegmentKey, str]:
    """The stored tablespace of the segments among ``keys`` that are stored (by owner first: one query)."""
    wanted = set(keys)
    condition = Q()
    for owner in {key.owner for key in keys}:
        condition |= Q(owner=owner)
    rows = Segment.objects.filter(condition, target_id=target_id).values_list(
        "owner", "object_name", "subobject_name", "object_type", "container", "tablespace_name")
    return {key: row[5] for row in rows if (key := SegmentKey(*row[:5])) in wanted}
