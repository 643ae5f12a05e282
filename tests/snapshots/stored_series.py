"""Snapshot series for the window tests: random skewed load on two segments (A, B) in snapshots ending at END,
stored and rolled up as a collection would store them; and the checks that a window read from the daily rollups
equals the one computed from every raw statistic."""

from __future__ import annotations

import dataclasses
import datetime as dt

import numpy as np

from apps.snapshots import windows
from apps.snapshots.models import Snapshot as SnapshotModel
from apps.snapshots.rollups import segment_days_roll_up
from apps.snapshots.services import collection_store
from apps.targets.base import CollectState
from apps.targets.models import Target
from apps.targets.rows import Collection, DatabaseInfo, SegmentKey, SegmentStat, Snapshot

END = dt.datetime(2026, 11, 20, 23, 30, tzinfo=dt.timezone.utc)
A = SegmentKey("APP", "ORDERS", "", "TABLE")
B = SegmentKey("APP", "Lines", "P1", "TABLE PARTITION")


def _snapshot(snap_id: int, end: dt.datetime, minutes: int, stats: dict[SegmentKey, tuple[int, int]],
              instance: int = 1) -> Snapshot:
    return Snapshot(
        dbid=7, instance_number=instance, snap_id=snap_id, begin_at=end - dt.timedelta(minutes=minutes), end_at=end,
        startup_at=END - dt.timedelta(days=60), top_n_only=False,
        segment_stats=tuple(
            SegmentStat(key=key, tablespace_name="DATA", obj_number=1, dataobj_number=1,
                        physical_read_requests=reads, physical_write_requests=writes, physical_reads_blocks=reads * 2,
                        table_scans=reads // 100)
            for key, (reads, writes) in stats.items()
        ),
    )


def series(minutes: int, count: int, seed: int, *, instances: int = 1, first_snap: int = 1) -> list[Snapshot]:
    """``count`` snapshots of ``minutes`` each ending at END, random skewed load on A and B."""
    rng = np.random.default_rng(seed)
    snaps = []
    for i in range(count):
        end = END - dt.timedelta(minutes=minutes * (count - 1 - i))
        for instance in range(1, instances + 1):
            burst = 50 if rng.random() < 0.07 else 1
            stats = {A: (int(rng.integers(0, 5000)) * burst, int(rng.integers(0, 500))),
                     B: (int(rng.integers(0, 50)), int(rng.integers(0, 50)) * burst)}
            if rng.random() < 0.1:
                del stats[B]  # not captured in this snapshot
            snaps.append(_snapshot(first_snap + i, end, minutes, stats, instance))
    return snaps


def store(target: Target, snapshots, kind: str = "demo") -> None:
    """``snapshots`` stored as one collection of ``kind`` at END, then rolled up into days."""
    collection = Collection(
        database=DatabaseInfo(dbid=7, db_name="W", release="19.0.0.0.0", is_rac=False, instances=(1,)),
        snapshots=tuple(snapshots),
    )
    collection_store(target=target, collection=collection, kind=kind,
                     state=CollectState(now=END, history_start_at=END - dt.timedelta(days=30)))
    segment_days_roll_up(target_id=target.id)


def assert_same(rolled: windows.WindowArrays, raw: windows.WindowArrays) -> None:
    """Both windows hold the same segments with the same figures (rates to 1e-12, counts exactly)."""
    a, b = np.argsort(rolled.segment_id), np.argsort(raw.segment_id)
    assert rolled.segment_id[a].tolist() == raw.segment_id[b].tolist()
    for name in ("iops", "read_iops", "write_iops", "covered_s"):
        assert np.allclose(getattr(rolled, name)[a], getattr(raw, name)[b], rtol=1e-12), name
    for name in (*windows.COUNTERS, "intervals", "from_samples"):
        assert getattr(rolled, name)[a].tolist() == getattr(raw, name)[b].tolist(), name


def days_read(monkeypatch) -> list[dt.date]:
    """The days whose rollups are read from now on (windows.day_rollup calls)."""
    read = []
    day_rollup = windows.day_rollup

    def recorded(*, target_id: int, day: dt.date):
        read.append(day)
        return day_rollup(target_id=target_id, day=day)

    monkeypatch.setattr(windows, "day_rollup", recorded)
    return read


def of_database(snapshots, dbid: int):
    """``snapshots`` as taken on the database ``dbid``."""
    return [dataclasses.replace(snap, dbid=dbid) for snap in snapshots]


def last_snapshot_day(target: Target) -> dt.date:
    """The day of ``target``'s latest stored snapshot."""
    return SnapshotModel.objects.filter(target=target).latest("end_at").end_at.date()


#: The window of the rebuild checks, in days.
DAYS = 7


def window_of(target: Target, *, days: int = DAYS, raw: bool = False) -> windows.WindowArrays:
    """``target``'s window of ``days`` up to its last snapshot's day, from the rollups or (``raw``) every raw
    statistic."""
    compute = windows.raw_window_figures if raw else windows.window_figures
    return compute(target_id=target.id, last_day=last_snapshot_day(target), days=days)


def assert_as_the_raw_statistics(target: Target, *, days: int = DAYS) -> None:
    """``target``'s window from the rollups equals the one from every raw statistic."""
    assert_same(window_of(target, days=days), window_of(target, days=days, raw=True))
