"""Targets with figures stored as a collection stores them, for the tests of the refresh and of the pages and
exports that read it. Each builder needs the seed tiers installed (the ``seed_tiers`` fixture); the clock is
tests.base.NOW. Shared fixtures built from them (``refresh_target``, ``grouped_target``) are in tests/conftest.py.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from apps.snapshots.models import Segment
from apps.snapshots.services import collection_store
from apps.targets.base import CollectState
from apps.targets.models import TablespaceTier, Target
from apps.targets.rows import Collection, DatabaseInfo, SegmentInfo, SegmentKey, SegmentStat, Snapshot, TablespaceIO
from apps.tiering.models import Recommendation, Tier
from apps.tiering.recommendations.services import recommendation_refresh
from tests.base import GB, NOW

HOT = SegmentKey("APP", "Hot Orders", "", "TABLE")
COLD = SegmentKey("APP", "ARCHIVE", "", "TABLE")
GROUPED_PARTITIONS = [SegmentKey("APP", "ORDERS", f"P{month:02d}", "TABLE PARTITION") for month in range(1, 16)]
LABEL = "APP.ORDERS partitions → flash (15 moves, $4.75/month together)"
COLD_PARTITIONS = tuple(SegmentKey("APP", "SALES", f"SALES_2024_{month:02d}", "TABLE PARTITION")
                        for month in range(1, 16))
LISTED = SegmentKey("APP", "LISTED", "", "TABLE")
LOGICAL_ONLY = SegmentKey("APP", "LOGICAL_ONLY", "", "TABLE")
UNBOUNDED = SegmentKey("APP", "UNBOUNDED", "", "TABLE")
UNLISTED = SegmentKey("APP", "UNLISTED", "", "TABLE")
RAC_KEY = SegmentKey("APP", "ORDERS", "", "TABLE")


def seed_target_create(name: str, mode: str, tiers: dict[str, str]) -> Target:
    """Target ``name`` in ``mode`` on the seed-2009 tiers (install them first), ``tiers`` mapping its tablespaces to
    tier names."""
    target = Target.objects.create(name=name, mode=mode, tier_set_id="seed-2009")
    for tablespace, tier in tiers.items():
        TablespaceTier.objects.create(target=target, tablespace_name=tablespace,
                                      tier=Tier.objects.get(tier_set="seed-2009", name=tier))
    return target


def hourly_snapshots(hours: int, reads_of, writes_of, key: SegmentKey, tablespace: str, latency_ms: float):
    """``hours`` hourly snapshots ending at NOW of one segment of ``tablespace``: ``reads_of(hour)`` and
    ``writes_of(hour)`` requests, its tablespace read at ``latency_ms`` a request."""
    snaps = []
    for hour in range(hours):
        end = NOW - dt.timedelta(hours=hours - 1 - hour)
        stat = SegmentStat(key=key, tablespace_name=tablespace, obj_number=1, dataobj_number=1,
                           physical_read_requests=reads_of(hour), physical_write_requests=writes_of(hour),
                           physical_reads_blocks=reads_of(hour))
        io = TablespaceIO(tablespace_name=tablespace, read_requests=reads_of(hour), write_requests=writes_of(hour),
                          read_time_ms=reads_of(hour) * latency_ms)
        snaps.append(Snapshot(dbid=7, instance_number=1, snap_id=1000 + hour, begin_at=end - dt.timedelta(hours=1),
                              end_at=end, startup_at=NOW - dt.timedelta(days=30), segment_stats=(stat,),
                              tablespace_io=(io,), top_n_only=False))
    return snaps


def refresh_target_store() -> Target:
    """Target t1 (demo mode, seed-2009 tiers: install them first) with 100 hours stored: HOT, 2 GB on SLOW
    (hi-cap disk), and COLD, 100 GB on FLASHY (flash)."""
    target = seed_target_create("t1", Target.Mode.DEMO, {"SLOW": "hi-cap disk", "FLASHY": "flash"})
    # HOT: 100 hours of 3600 reads/h (1 IOPS) except 10 busy hours at 360,000 reads/h (100 IOPS).
    hot = hourly_snapshots(100, lambda h: 360_000 if h % 10 == 0 else 3600, lambda h: 0, HOT, "SLOW", 12.5)
    cold = hourly_snapshots(100, lambda h: 36, lambda h: 0, COLD, "FLASHY", 0.25)
    snapshots = tuple(
        Snapshot(**{**a.__dict__, "segment_stats": a.segment_stats + b.segment_stats,
                    "tablespace_io": a.tablespace_io + b.tablespace_io})
        for a, b in zip(hot, cold)
    )
    collection = Collection(
        database=DatabaseInfo(dbid=7, db_name="T1", release="19.0.0.0.0", is_rac=False, instances=(1,)),
        snapshots=snapshots,
        segments=(SegmentInfo(key=HOT, tablespace_name="SLOW", bytes=2 * GB, blocks=2 * GB // 8192),
                  SegmentInfo(key=COLD, tablespace_name="FLASHY", bytes=100 * GB, blocks=100 * GB // 8192)),
    )
    state = CollectState(now=NOW, history_start_at=NOW - dt.timedelta(days=8))
    collection_store(target=target, collection=collection, kind="demo", state=state)
    return target


def recommendation_of(target: Target, key: SegmentKey) -> Recommendation:
    """The current recommendation of ``target``'s segment named like ``key`` (its run read with it)."""
    segment = Segment.objects.get(target=target, object_name=key.object_name)
    return Recommendation.objects.current().select_related("run").get(segment=segment)


def steady_reads_store(target: Target, keys: Sequence[SegmentKey], *, tablespace: str, reads_per_hour: int,
                       size_bytes: int, first_object: int, first_snap_id: int, db_name: str,
                       partitioned_parent: str | None = None) -> None:
    """48 hours ending at NOW stored into ``target``: each of ``keys`` a segment of ``size_bytes`` on ``tablespace``
    (object numbers from ``first_object``, of ``partitioned_parent`` if given), read ``reads_per_hour`` times an hour,
    never written, in snapshots numbered from ``first_snap_id`` of database ``db_name``."""
    snapshots = []
    for hour in range(48):
        end = NOW - dt.timedelta(hours=47 - hour)
        stats = tuple(SegmentStat(key=key, tablespace_name=tablespace, obj_number=first_object + i,
                                  dataobj_number=first_object + i, physical_read_requests=reads_per_hour,
                                  physical_write_requests=0, physical_reads_blocks=reads_per_hour)
                      for i, key in enumerate(keys))
        snapshots.append(Snapshot(dbid=7, instance_number=1, snap_id=first_snap_id + hour,
                                  begin_at=end - dt.timedelta(hours=1), end_at=end,
                                  startup_at=NOW - dt.timedelta(days=30), segment_stats=stats, top_n_only=False))
    collection = Collection(
        database=DatabaseInfo(dbid=7, db_name=db_name, release="19.0.0.0.0", is_rac=False, instances=(1,)),
        snapshots=tuple(snapshots),
        segments=tuple(SegmentInfo(key=key, tablespace_name=tablespace, bytes=size_bytes, blocks=size_bytes // 8192,
                                   partitioned_parent=partitioned_parent) for key in keys),
    )
    collection_store(target=target, collection=collection, kind="demo",
                     state=CollectState(now=NOW, history_start_at=NOW - dt.timedelta(days=8)))


def grouped_target_store() -> Target:
    """Target "grouped" (demo mode, seed-2009 tiers: install them first) with 48 hours stored of fifteen
    0.2 GB partitions of APP.ORDERS on SLOW (hi-cap disk), each at 10 IOPS: each not worth moving alone,
    worth moving to flash together (LABEL) under the set's default terms."""
    target = seed_target_create("grouped", Target.Mode.DEMO, {"SLOW": "hi-cap disk", "FLASHY": "flash"})
    steady_reads_store(target, GROUPED_PARTITIONS, tablespace="SLOW", reads_per_hour=36_000, size_bytes=GB // 5,
                       first_object=100, first_snap_id=1000, db_name="G", partitioned_parent="ORDERS")
    return target


def cold_partitions_store(target: Target, keys: Sequence[SegmentKey] = COLD_PARTITIONS) -> None:
    """Fifteen 10 GB partitions (or ``keys``) in tablespace COLD, read 7 times an hour each (0.002 IOPS)."""
    steady_reads_store(target, keys, tablespace="COLD", reads_per_hour=7, size_bytes=10 * GB, first_object=1,
                       first_snap_id=2000, db_name="C1")


def flashy_stat(key: SegmentKey, **figures) -> SegmentStat:
    """A segment statistic of ``key`` on tablespace FLASHY, object numbers unknown (as a report gives it)."""
    return SegmentStat(key=key, tablespace_name="FLASHY", obj_number=None, dataobj_number=None, **figures)


def report_target_store(*, unlisted_bound: int | None) -> Target:
    """Report target "rpt" (seed-2009 tiers: install them first), refreshed, with one top-N hour of four 100 GB
    segments on FLASHY (flash): LISTED measured, LOGICAL_ONLY listed by logical reads only (with bounds),
    UNBOUNDED listed without a usable bound, UNLISTED listed nowhere (the report's ``unlisted_bound``)."""
    target = seed_target_create("rpt", Target.Mode.REPORT, {"FLASHY": "flash"})
    snapshot = Snapshot(
        dbid=7, instance_number=1, snap_id=100, begin_at=NOW - dt.timedelta(hours=1), end_at=NOW,
        startup_at=NOW - dt.timedelta(days=30), top_n_only=True,
        unlisted_read_requests_bound=unlisted_bound, unlisted_write_requests_bound=0 if unlisted_bound else None,
        segment_stats=(
            flashy_stat(LISTED, physical_read_requests=3600, physical_write_requests=0, logical_reads=10),
            # Listed by logical reads only: the request sections bound it (their smallest listed value), and
            # the bound is high enough to make flash the cheaper tier (above 1200 IOPS on 100 GB).
            flashy_stat(LOGICAL_ONLY, physical_read_requests=None, read_requests_bound=5_000_000,
                        physical_write_requests=None, write_requests_bound=360, logical_reads=10**6),
            # ##### in a section without a usable bound.
            flashy_stat(UNBOUNDED, physical_read_requests=None, physical_write_requests=0, logical_reads=10**6),
        ),
    )
    collection = Collection(
        database=DatabaseInfo(dbid=7, db_name="RPT", release="19.0.0.0.0", is_rac=False, instances=(1,)),
        snapshots=(snapshot,),
        segments=tuple(SegmentInfo(key=key, tablespace_name="FLASHY", bytes=100 * GB, blocks=100 * GB // 8192)
                       for key in (LISTED, LOGICAL_ONLY, UNBOUNDED, UNLISTED)),
    )
    collection_store(target=target, collection=collection, kind="report",
                     state=CollectState(now=NOW, history_start_at=NOW - dt.timedelta(days=8)))
    recommendation_refresh(target_id=target.id, now=NOW)
    return target


def rac_interval_store(target: Target, instance: int) -> None:
    """The report of ``instance`` (of a 2-instance RAC database) for one hour ending at NOW, stored into
    ``target`` and refreshed: RAC_KEY on FLASHY, 36 read requests."""
    snapshot = Snapshot(
        dbid=7, instance_number=instance, snap_id=100, begin_at=NOW - dt.timedelta(hours=1), end_at=NOW,
        startup_at=NOW - dt.timedelta(days=30), top_n_only=True, database_instances=2,
        unlisted_read_requests_bound=10, unlisted_write_requests_bound=10,
        segment_stats=(flashy_stat(RAC_KEY, physical_read_requests=36, physical_write_requests=0),))
    collection = Collection(
        database=DatabaseInfo(dbid=7, db_name="RAC", release="19.0.0.0.0", is_rac=True, instances=(instance,)),
        snapshots=(snapshot,),
        segments=(SegmentInfo(key=RAC_KEY, tablespace_name="FLASHY", bytes=100 * GB, blocks=100 * GB // 8192),))
    collection_store(target=target, collection=collection, kind="report",
                     state=CollectState(now=NOW, history_start_at=NOW - dt.timedelta(days=8)))
    recommendation_refresh(target_id=target.id, now=NOW)
