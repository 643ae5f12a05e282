"""The daily rollups (RollupDay): a target's snapshots rolled up per UTC day, kept in step with them.

:func:`segment_days_roll_up` adds the snapshots stored since its last run to
their days; it rebuilds a day whose snapshots changed under it (a late RAC
instance; a delete, which the snapshots' delete trigger marks) and every day
when the target's database changed (a new DBID: windows show one database).
Called before every window read (apps.snapshots.figures), so a collection
itself stays a plain COPY of raw rows (apps.snapshots.store).

A day that has not ended is not rewritten whole every hour: each roll-up
adds what it rolls up to the day's part (RollupHour: what the roll-ups
since the RollupDay was written added, narrow and compressed), and the
part is merged into the day's RollupDay every :data:`PARTS_PER_DAY` roll-ups
and once the day has ended (the version unchanged: the rollup is the same).
A day's rollup is its RollupDay merged with its part (:func:`day_rollup`).
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import psycopg
from django.db import connection, transaction
from django.utils import timezone

from apps.core import sql as core_sql
from apps.core.config import get_config
from apps.core.locks import LockSpace, lock_xact
from apps.core.pgcopy import execute_binary, fetch_arrays, fetch_bytes
from apps.core.time import day_bounds, utc_day
from apps.snapshots import activity
from apps.snapshots import sql as pg
from apps.snapshots.activity import COUNTERS, Activity
from apps.snapshots.models import TOP_IOPS, RollupDay, RollupHour, Snapshot

# One row per segment and instance snapshot; activity.from_snapshots sums the instances of one snapshot
# (RAC), 2.5x faster in numpy than a GROUP BY. Which snapshot a row belongs to (its kind, database and
# snap_id) is known from the snapshot ids read: no join. The bounds of the snapshots' UTC day (a row's
# end_at is its snapshot's) prune the read to that day's partition when it is planned (apps.snapshots.
# partitions).
PER_SNAPSHOT_SQL = pg.per_snapshot(COUNTERS)

_PER_SNAPSHOT_COLUMNS = (("segment_id", "int8"), ("snapshot_id", "int8"),
                         *((name, "int8") for name in COUNTERS), ("interval_s", "float8"))

#: Roll-ups of a day that has not ended after which its part (RollupHour) is merged into its RollupDay: the
#: part holds at most PARTS_PER_DAY - 1 of them, and a day of hourly snapshots is rewritten whole 4 times.
PARTS_PER_DAY = 6

#: A snapshot as the rollups tell them apart: (kind, dbid, snap_id); its RAC instances are summed.
SnapshotKey = tuple[str, int, int]

# The database a target's windows show: the DBID of its latest snapshot (the one stored last on a tie).
CURRENT_DBID_SQL = pg.CURRENT_DBID


def segment_days_roll_up(*, target_id: int, on_merged: Callable[[dt.date, Activity], None] | None = None,
                         now: dt.datetime | None = None) -> list[dt.date]:
    """Add the target's snapshots stored since the last roll-up to its daily rollups; returns the days
    changed, in order.

    One transaction: the snapshots are locked, merged into their days'
    RollupDay and marked rolled up together, so each is added exactly once (a
    killed worker leaves them pending for the next run; a concurrent run waits).
    Only the snapshots of the target's current database count (see
    RollupDay): when it is not the one the rollups were built from, they are
    all rebuilt; snapshots of other databases are marked without being added.
    A day that gets an instance of a snapshot it holds already (a RAC
    instance arriving late) is rebuilt from all its snapshots, so the
    instances are summed. ``on_merged(day, rollup)`` gets each day's new
    rollup before it is written (empty for a day whose rollup a change of
    database removed), so a refresh computes with it meanwhile; earlier days
    are written by then, but none is committed before this returns.

    A day on or after the UTC day of ``now`` (default: the clock) gets a part
    (see the module docstring); the parts of earlier days are merged into
    their RollupDay.
    """
    today = utc_day(now or timezone.now())
    with transaction.atomic(), connection.cursor() as cursor:
        # Derived from the snapshots it marks: a crash loses both or neither, and a lost roll-up is
        # simply done again, so the commit need not wait for the WAL of a day's 30 MB to reach the disk.
        cursor.execute(core_sql.SYNCHRONOUS_COMMIT_OFF)
        # One roll-up per target at a time (a day's rollup is read, merged and written back); the delete
        # trigger (snapshots migrations/_database_sql.py) takes the same lock.
        lock_xact(LockSpace.ROLL_UP, target_id)
        cursor.execute(CURRENT_DBID_SQL, [target_id])
        current = cursor.fetchone()
        if current is None:
            return []
        dbid = current[0]
        dropped = _rollups_of_another_database_drop(cursor, target_id, dbid)
        cursor.execute(pg.ROLLUP_PENDING, [target_id])
        pending = cursor.fetchall()
        days: dict[dt.date, dict[SnapshotKey, list[int]]] = defaultdict(lambda: defaultdict(list))
        for pk, kind, snap_dbid, snap_id, end_at in pending:
            if snap_dbid == dbid:
                days[utc_day(end_at)][(kind, snap_dbid, snap_id)].append(pk)
        again = _days_with_late_instances(cursor, target_id, [pk for day in days.values() for pks in day.values()
                                                              for pk in pks])
        for day in sorted(dropped | set(days)):
            part, stored = None, None
            if day not in days:
                merged = Activity.empty()
            elif day in again:
                merged = _day_merged(cursor, Activity.empty(), day, _day_snapshots(cursor, target_id, dbid, day))
            else:
                stored = _day_stored(target_id, day)
                part = _day_merged(cursor, Activity.empty(), day, days[day])
                merged = activity.merge_many([*stored.blobs, part], keep=TOP_IOPS)
            if on_merged:
                on_merged(day, merged)
            if stored is not None and part is not None and day >= today and stored.roll_ups + 1 < PARTS_PER_DAY:
                _part_write(cursor, target_id, day, dbid, activity.merge_many([*stored.part_blobs, part],
                                                                              keep=TOP_IOPS), stored.roll_ups + 1)
            elif day in days:
                _day_write(cursor, target_id, day, merged)
        _days_ended_merge(cursor, target_id, today)
        if days:  # the database the days hold (a day new to the rollups has none yet)
            cursor.execute(pg.ROLLUP_DAYS_DBID_SET, [dbid, target_id, list(days), dbid])
        if pending:
            cursor.execute(pg.SNAPSHOTS_ROLLED_UP, [[row[0] for row in pending]])
    return sorted(dropped | set(days))


def _rollups_of_another_database_drop(cursor, target_id: int, dbid: int) -> set[dt.date]:
    """Drop the target's rollups and window bases unless they are ``dbid``'s, and mark every snapshot of
    ``dbid`` to be rolled up again; returns the days whose rollups were dropped."""
    cursor.execute(pg.ROLLUPS_DBID, [target_id, target_id])
    stored = cursor.fetchone()
    if stored is not None and stored[0] == dbid:
        return set()
    if stored is None:
        # No rollups: rebuild only if some of dbid's snapshots were marked while another database was current.
        cursor.execute(pg.ROLLED_UP_EXISTS, [target_id, dbid])
        if not cursor.fetchone()[0]:
            return set()
    cursor.execute(pg.ROLLUP_DAYS_DELETE, [target_id])
    dropped = {row[0] for row in cursor.fetchall()}
    cursor.execute(pg.ROLLUP_PARTS_DELETE, [target_id])
    dropped |= {row[0] for row in cursor.fetchall()}
    cursor.execute(pg.WINDOW_BASES_DELETE, [target_id])
    cursor.execute(pg.SNAPSHOTS_ROLL_UP_AGAIN, [target_id, dbid])
    return dropped


def _days_with_late_instances(cursor, target_id: int, pending: list[int]) -> set[dt.date]:
    """The days where one of the ``pending`` snapshots is an instance of a snapshot rolled up already."""
    if not pending:
        return set()
    cursor.execute(pg.LATE_INSTANCE_DAYS, [pending, target_id])
    return {row[0] for row in cursor.fetchall()}


def _day_snapshots(cursor, target_id: int, dbid: int, day: dt.date) -> dict[SnapshotKey, list[int]]:
    """Every snapshot of ``dbid`` in the day, by key."""
    cursor.execute(pg.DAY_SNAPSHOTS, [target_id, dbid, *day_bounds(day)])
    snapshots: dict[SnapshotKey, list[int]] = defaultdict(list)
    for pk, kind, snap_id in cursor.fetchall():
        snapshots[(kind, dbid, snap_id)].append(pk)
    return snapshots


def _day_merged(cursor, merged: Activity, day: dt.date, snapshots: dict[SnapshotKey, list[int]]) -> Activity:
    """``merged`` (a day's rollup) with ``snapshots`` (each key's instances, all ending on ``day``) added."""
    keys = list(snapshots.items())
    start, end = day_bounds(day)
    per_read = get_config()["ROLLUP_SNAPSHOTS_PER_READ"]  # bounds the memory of a roll-up of a long history
    for first in range(0, len(keys), per_read):
        part = keys[first:first + per_read]
        # Snapshot id -> the number of its key in the part, and whether it is a V$ sample.
        ids = np.array([pk for _, pks in part for pk in pks], dtype=np.int64)
        key_of = np.array([n for n, (_, pks) in enumerate(part) for _ in pks], dtype=np.int64)
        sample_of = np.array([key[0] == "sample" for key, pks in part for _ in pks], dtype=bool)
        order = np.argsort(ids)
        ids, key_of, sample_of = ids[order], key_of[order], sample_of[order]
        rows = fetch_arrays(cursor.cursor, PER_SNAPSHOT_SQL, [ids.tolist(), start, end], _PER_SNAPSHOT_COLUMNS)
        at = np.searchsorted(ids, rows["snapshot_id"])
        part_activity = activity.from_snapshots(
            segment_id=rows["segment_id"], from_samples=sample_of[at], snapshot=key_of[at],
            counters=np.column_stack([rows[name] for name in COUNTERS]), interval_s=rows["interval_s"],
            keep=TOP_IOPS)
        merged = activity.merge(merged, part_activity, keep=TOP_IOPS)
    return merged


def _day_write(cursor, target_id: int, day: dt.date, merged: Activity, *, version: int | None = None,
               dbid: int | None = None) -> None:
    """Store the day's whole rollup (with a new version unless given) in place of its RollupDay and parts."""
    execute_binary(cursor.cursor, pg.DAY_WRITE,
                   [target_id, day, dbid, version, len(merged), merged.width, merged.to_bytes()])
    cursor.execute(pg.DAY_PARTS_DELETE, [target_id, day])


def _part_write(cursor, target_id: int, day: dt.date, dbid: int, part: Activity, roll_ups: int) -> None:
    """Store the day's part (what ``roll_ups`` roll-ups added since its RollupDay was written) with a new version,
    in place of the one before."""
    cursor.execute(pg.DAY_PARTS_DELETE, [target_id, day])
    execute_binary(cursor.cursor, pg.PART_WRITE, [target_id, day, dbid, roll_ups, len(part), part.width, part.to_bytes()])


def _days_ended_merge(cursor, target_id: int, today: dt.date) -> None:
    """Merge the parts of the days before ``today`` into their RollupDay, each day's version kept."""
    cursor.execute(pg.PART_DAYS_BEFORE, [target_id, today])
    for (day,) in cursor.fetchall():
        stored = _day_stored(target_id, day)
        _day_write(cursor, target_id, day, activity.merge_many(stored.blobs, keep=TOP_IOPS),
                   version=stored.version, dbid=stored.dbid)


@dataclass(frozen=True)
class _Stored:
    """A day's rollup as stored: its RollupDay's blob (if any) first, then its part's (``part_blobs``: one,
    unless a roll-up before them left several), the roll-ups its parts hold, the highest version of all and
    the DBID they were rolled up from."""

    blobs: list[Activity]
    part_blobs: list[Activity]
    roll_ups: int
    version: int
    dbid: int | None


def _day_stored(target_id: int, day: dt.date) -> _Stored:
    with connection.cursor() as cursor, psycopg.Cursor(cursor.cursor.connection) as binary:
        # A cursor binding its parameters on the server, so the blobs come back in binary (see apps.core.pgcopy).
        binary.execute(pg.DAY_STORED, {"target": target_id, "day": day}, binary=True)
        stored = binary.fetchall()
    blobs = [Activity.from_bytes(data, rows=rows, width=width) for *_, rows, width, data in stored]
    return _Stored(blobs=blobs, part_blobs=[blob for blob, row in zip(blobs, stored, strict=True) if row[0]],
                   roll_ups=sum(roll_ups for _, _, _, roll_ups, *_ in stored),
                   version=max((version for _, version, *_ in stored), default=0),
                   dbid=next((dbid for _, _, dbid, *_ in stored if dbid is not None), None))


def day_rollup(*, target_id: int, day: dt.date) -> Activity:
    """A target's rollup of one day: its RollupDay merged with its parts (empty when nothing was collected
    that day)."""
    return activity.merge_many(_day_stored(target_id, day).blobs, keep=TOP_IOPS)


def day_versions(*, target_id: int, first_day: dt.date | None = None, last_day: dt.date) -> dict[dt.date, int]:
    """The version of each of the target's days up to ``last_day`` (from ``first_day``) that has a rollup: the
    highest of its RollupDay's and its parts'."""
    params: list[Any] = [target_id, last_day, *([] if first_day is None else [first_day])]
    with connection.cursor() as cursor:
        cursor.execute(pg.day_versions(from_first_day=first_day is not None), params + params)
        return dict(cursor.fetchall())


def rollup_read(model: type, pk: int, *, rows: int, width: int) -> Activity:
    """The Activity in the ``data`` column of the row ``pk`` of ``model`` (a rollup's: RollupDay, RollupHour,
    WindowBase), read in binary."""
    with connection.cursor() as cursor:
        data = fetch_bytes(cursor.cursor, pg.data_of(model), [pk])
    return Activity.from_bytes(data or b"", rows=rows, width=width)


def segment_days_rebuild(*, target_id: int | None = None) -> None:
    """Recompute the daily rollups from the stored statistics (all targets, or one)."""
    snapshots = Snapshot.objects.all() if target_id is None else Snapshot.objects.filter(target_id=target_id)
    days = RollupDay.objects.all() if target_id is None else RollupDay.objects.filter(target_id=target_id)
    parts = RollupHour.objects.all() if target_id is None else RollupHour.objects.filter(target_id=target_id)
    with transaction.atomic():
        target_ids = list(snapshots.order_by("target_id").values_list("target_id", flat=True).distinct())
        days.delete()
        parts.delete()
        snapshots.filter(rolled_up=True).update(rolled_up=False)
        for pk in target_ids:
            segment_days_roll_up(target_id=pk)
