"""Daily partitions of snapshots_segmentstat: created ahead, on demand, and dropped by retention.

snapshots_segmentstat is partitioned by RANGE on end_at, one partition per UTC
day, named snapshots_segmentstat_pYYYYMMDD. A day is the unit both of the
rollups (RollupDay) and of retention, so dropping a partition forgets exactly
the rollups of that day. Partitions are created by the periodic task a few days
ahead and, before every COPY, for any day of the batch that has none (an old
AWR report from years ago loads into partitions made for its own days).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable

from django.db import connection, transaction

from apps.core.locks import LockSpace, lock_xact
from apps.core.time import day_bounds, utc_day
from apps.snapshots import sql as pg
from apps.snapshots.models import SegmentStat, Snapshot

PARENT = SegmentStat._meta.db_table
#: Catches a row whose day has no partition yet (a write that bypassed the store); the periodic task moves
#: such rows into a partition of their day.
DEFAULT = f"{PARENT}_default"
#: Days after today whose partition the periodic task creates ahead (it runs every 6 hours).
PARTITION_DAYS_AHEAD = 3


def partition_name(day: dt.date) -> str:
    return f"{PARENT}_p{day:%Y%m%d}"


def _bounds(day: dt.date) -> tuple[str, str]:
    """The partition's bounds as DDL literals ("2026-01-31 00:00:00+00")."""
    start, stop = day_bounds(day)
    return f"{start:%Y-%m-%d %H:%M:%S}+00", f"{stop:%Y-%m-%d %H:%M:%S}+00"


def partition_days() -> list[dt.date]:
    """The days that have a partition, in order."""
    prefix = f"{PARENT}_p"
    with connection.cursor() as cursor:
        cursor.execute(pg.PARTITIONS_OF, [PARENT])
        names = [row[0] for row in cursor.fetchall()]
    return sorted(dt.datetime.strptime(name[len(prefix):], "%Y%m%d").date()
                  for name in names if name.startswith(prefix))


def partitions_ensure(days: Iterable[dt.date]) -> list[dt.date]:
    """Create the partitions of ``days`` that do not exist yet; returns the days created. Idempotent.

    Runs in the caller's transaction (the store's COPY) or its own; the advisory
    lock keeps two workers from racing to create the same day.
    """
    wanted = sorted(set(days))
    if not wanted:
        return []
    existing = set(partition_days())
    missing = [day for day in wanted if day not in existing]
    if not missing:
        return []
    created = []
    with transaction.atomic(), connection.cursor() as cursor:
        lock_xact(LockSpace.PARTITION_DDL, 0)  # partition DDL, one worker at a time
        existing = set(partition_days())  # again, under the lock
        for day in missing:
            if day in existing:
                continue
            # Made apart, filled with the day's rows the default partition caught, then attached (attaching
            # checks that the default partition holds none of the day any more).
            name, (low, high) = partition_name(day), _bounds(day)
            cursor.execute(pg.partition_create(name))
            cursor.execute(pg.partition_fill(name, DEFAULT), [low, high])
            cursor.execute(pg.partition_attach(name), [low, high])
            created.append(day)
    return created


def default_days() -> list[dt.date]:
    """The days of the rows in the default partition: written by something other than the store (a raw COPY
    by hand), before their day had a partition."""
    with connection.cursor() as cursor:
        cursor.execute(pg.default_days(DEFAULT))
        return [row[0] for row in cursor.fetchall()]


def partitions_ahead(*, now: dt.datetime, days_ahead: int) -> list[dt.date]:
    """Create the partitions of today and the next ``days_ahead`` days, and of the days of rows the default
    partition caught (the periodic task)."""
    today = utc_day(now)
    return partitions_ensure([today + dt.timedelta(days=n) for n in range(days_ahead + 1)] + default_days())


def partitions_droppable(*, horizons: dict[int, dt.datetime]) -> list[dt.date]:
    """The days whose partition no target still needs: every snapshot ending that day is before its target's horizon.

    ``horizons``: target id -> the moment before which the target's snapshots go.
    A day with a snapshot of a target that has no horizon is kept. Only days
    wholly before the latest horizon are candidates; empty partitions of those
    days are dropped too. Today and later are never dropped (created ahead).
    """
    if not horizons:
        return []
    latest = max(horizons.values())
    candidates = [day for day in partition_days()
                  if day_bounds(day)[1] <= latest]
    if not candidates:
        return []
    ids = list(horizons)
    moments = [horizons[i] for i in ids]
    with connection.cursor() as cursor:
        # The days where some snapshot is still within its target's horizon (or its target has none).
        cursor.execute(pg.DAYS_NEEDED, [ids, moments, day_bounds(candidates[-1])[1]])
        needed = {row[0] for row in cursor.fetchall()}
    return [day for day in candidates if day not in needed]


def partitions_drop(days: Iterable[dt.date]) -> int:
    """Drop the partitions of ``days`` and delete their snapshots (whose delete trigger forgets the rollups of
    those days). One transaction: on failure nothing is dropped. Returns the snapshots deleted."""
    deleted = 0
    with transaction.atomic(), connection.cursor() as cursor:
        lock_xact(LockSpace.PARTITION_DDL, 0)  # partition DDL, one worker at a time
        for day in sorted(set(days)):
            cursor.execute(pg.partition_drop(partition_name(day)))
            start, stop = day_bounds(day)
            count, _ = Snapshot.objects.filter(end_at__gte=start, end_at__lt=stop).delete()
            deleted += count
    return deleted
