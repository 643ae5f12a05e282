"""Window figures from the daily rollups equal those computed from every raw statistic."""

from __future__ import annotations

import datetime as dt

import numpy as np
import pytest

from apps.snapshots import windows
from apps.snapshots.activity import Activity
from apps.snapshots.models import RollupDay, WindowBase
from apps.snapshots.rollups import segment_days_rebuild, segment_days_roll_up
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


def _series(minutes: int, count: int, seed: int, *, instances: int = 1, first_snap: int = 1) -> list[Snapshot]:
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


def _store(target: Target, snapshots, kind: str = "demo") -> None:
    collection = Collection(
        database=DatabaseInfo(dbid=7, db_name="W", release="19.0.0.0.0", is_rac=False, instances=(1,)),
        snapshots=tuple(snapshots),
    )
    collection_store(target=target, collection=collection, kind=kind,
                     state=CollectState(now=END, history_start_at=END - dt.timedelta(days=30)))
    segment_days_roll_up(target_id=target.id)


def _day_rows(target: Target) -> list[tuple]:
    """Every (day, segment, source) of the target's daily rollups with its sums and top values."""
    rows = []
    for day in RollupDay.objects.filter(target=target).order_by("day"):
        rollup = Activity.from_bytes(day.data, rows=day.rows, width=day.width)
        for i in range(len(rollup)):
            rows.append((day.day, int(rollup.segment_id[i]), bool(rollup.from_samples[i]),
                         int(rollup.counter("read_requests")[i]), int(rollup.counter("write_requests")[i]),
                         int(rollup.intervals[i]), tuple(float(v) for v in rollup.tops[i] if v >= 0)))
    return rows


def _assert_same(rolled: windows.WindowArrays, raw: windows.WindowArrays) -> None:
    a, b = np.argsort(rolled.segment_id), np.argsort(raw.segment_id)
    assert rolled.segment_id[a].tolist() == raw.segment_id[b].tolist()
    for name in ("iops", "read_iops", "write_iops", "covered_s"):
        assert np.allclose(getattr(rolled, name)[a], getattr(raw, name)[b], rtol=1e-12), name
    for name in (*windows.COUNTERS, "intervals", "from_samples"):
        assert getattr(rolled, name)[a].tolist() == getattr(raw, name)[b].tolist(), name


def _days_read(monkeypatch) -> list[dt.date]:
    """The days whose rollups are read from now on (windows.day_rollup calls)."""
    read = []
    day_rollup = windows.day_rollup

    def recorded(*, target_id: int, day: dt.date):
        read.append(day)
        return day_rollup(target_id=target_id, day=day)

    monkeypatch.setattr(windows, "day_rollup", recorded)
    return read


@pytest.fixture
def target(db) -> Target:
    return Target.objects.create(name="w", mode=Target.Mode.DEMO)


@pytest.mark.django_db
class WindowFiguresTests:
    @pytest.mark.parametrize("statistic", windows.STATISTICS)
    @pytest.mark.parametrize("days", [1, 3, 7])
    def test_the_rollups_give_the_raw_figures_for_hourly_snapshots(self, target, statistic, days):
        _store(target, _series(60, 24 * 9, seed=days))

        rolled = windows.window_figures(target_id=target.id, last_day=END.date(), days=days, statistic=statistic)
        raw = windows.raw_window_figures(target_id=target.id, last_day=END.date(), days=days, statistic=statistic)

        assert len(rolled) == 2
        _assert_same(rolled, raw)

    def test_the_p95_stays_exact_when_days_keep_only_their_top_values(self, target):
        # 30-minute snapshots: 48 a day, more than TOP_IOPS, so every day is cut to its top values.
        _store(target, _series(30, 48 * 7, seed=11))
        assert max(row[5] for row in _day_rows(target)) > windows.TOP_IOPS

        rolled = windows.window_figures(target_id=target.id, last_day=END.date(), days=7)

        _assert_same(rolled, windows.raw_window_figures(target_id=target.id, last_day=END.date(), days=7))

    def test_a_window_whose_p95_needs_more_than_the_kept_values_is_read_from_the_raw_rows(self, target, monkeypatch):
        _store(target, _series(60, 24 * 3, seed=5))
        monkeypatch.setattr(windows, "TOP_IOPS", 2)  # k for 72 hourly values is 4

        rolled = windows.window_figures(target_id=target.id, last_day=END.date(), days=3)

        _assert_same(rolled, windows.raw_window_figures(target_id=target.id, last_day=END.date(), days=3))
        assert not WindowBase.objects.filter(target=target).exists()

    def test_rac_instances_of_one_snapshot_count_as_one_figure(self, target):
        _store(target, _series(60, 48, seed=3, instances=2))

        rolled = windows.window_figures(target_id=target.id, last_day=END.date(), days=2)

        _assert_same(rolled, windows.raw_window_figures(target_id=target.id, last_day=END.date(), days=2))

    def test_a_day_with_snapshots_ignores_that_days_samples(self, target):
        _store(target, _series(60, 48, seed=8))
        # V$ samples on both days measure the same hours again; one earlier day has samples only.
        _store(target, _series(60, 72, seed=9, first_snap=5000), kind="sample")

        rolled = windows.window_figures(target_id=target.id, last_day=END.date(), days=3)
        raw = windows.raw_window_figures(target_id=target.id, last_day=END.date(), days=3)

        _assert_same(rolled, raw)
        assert rolled.intervals.max() <= 72 and not rolled.from_samples.any()

    def test_the_window_base_is_rebuilt_when_one_of_its_days_changes(self, target):
        snaps = _series(60, 24 * 4, seed=4)
        late = snaps.pop(30)  # a snapshot of an earlier day arrives later
        _store(target, snaps)
        windows.window_figures(target_id=target.id, last_day=END.date(), days=4)
        built = WindowBase.objects.get(target=target).version

        _store(target, [late])
        rolled = windows.window_figures(target_id=target.id, last_day=END.date(), days=4)

        assert WindowBase.objects.get(target=target).version > built
        _assert_same(rolled, windows.raw_window_figures(target_id=target.id, last_day=END.date(), days=4))

    def test_a_base_kept_for_the_maximum_is_rebuilt_for_a_p95(self, target):
        _store(target, _series(60, 24 * 5, seed=13))
        windows.window_figures(target_id=target.id, last_day=END.date(), days=5, statistic="max")
        assert WindowBase.objects.get(target=target).ranks == 1

        rolled = windows.window_figures(target_id=target.id, last_day=END.date(), days=5)

        assert WindowBase.objects.get(target=target).ranks >= windows.p95_rank(np.array([120]))[0]
        _assert_same(rolled, windows.raw_window_figures(target_id=target.id, last_day=END.date(), days=5))

    def test_the_next_days_window_extends_the_base_prepared_the_day_before(self, target, monkeypatch):
        _store(target, _series(60, 24 * 6, seed=21))
        today, yesterday = END.date(), END.date() - dt.timedelta(days=1)
        windows.window_figures(target_id=target.id, last_day=yesterday, days=4)  # yesterday's refresh
        assert windows.window_base_prepare(target_id=target.id, last_day=yesterday, days=4) == [
            (yesterday - dt.timedelta(days=2), yesterday - dt.timedelta(days=1))]
        read = _days_read(monkeypatch)

        rolled = windows.window_figures(target_id=target.id, last_day=today, days=4)

        # Two days' rollups: the one just ended (added to the prepared base) and today's.
        assert sorted(read) == [yesterday, today]
        _assert_same(rolled, windows.raw_window_figures(target_id=target.id, last_day=today, days=4))
        # The base of yesterday's window is gone; today's was built from the one prepared for it.
        assert sorted(WindowBase.objects.filter(target=target).values_list("first_day", "last_day")) == [
            (today - dt.timedelta(days=3), yesterday - dt.timedelta(days=1)), (today - dt.timedelta(days=3), yesterday)]

    def test_a_base_prepared_at_the_days_last_collection_serves_the_next_days_first_window(self, target, monkeypatch):
        _store(target, _series(60, 24 * 6, seed=24))
        today, yesterday = END.date(), END.date() - dt.timedelta(days=1)
        windows.window_figures(target_id=target.id, last_day=yesterday, days=4)
        windows.window_base_prepare(target_id=target.id, last_day=yesterday, days=4, day_ends=True)
        read = _days_read(monkeypatch)

        rolled = windows.window_figures(target_id=target.id, last_day=today, days=4)

        assert read == [today]
        _assert_same(rolled, windows.raw_window_figures(target_id=target.id, last_day=today, days=4))

    def test_a_prepared_base_whose_day_changed_is_built_again_from_the_days(self, target, monkeypatch):
        snaps = _series(60, 24 * 6, seed=22)
        late = snaps.pop(24 * 3 + 5)  # of a day both windows share, arriving after the base was prepared
        _store(target, snaps)
        yesterday = END.date() - dt.timedelta(days=1)
        windows.window_figures(target_id=target.id, last_day=yesterday, days=4)
        windows.window_base_prepare(target_id=target.id, last_day=yesterday, days=4)
        _store(target, [late])
        read = _days_read(monkeypatch)

        rolled = windows.window_figures(target_id=target.id, last_day=END.date(), days=4)

        assert len(read) == 4  # every day of the window
        _assert_same(rolled, windows.raw_window_figures(target_id=target.id, last_day=END.date(), days=4))

    def test_a_base_is_prepared_once_and_none_shared_by_windows_of_two_days(self, target):
        _store(target, _series(60, 24 * 5, seed=23))

        first = windows.window_base_prepare(target_id=target.id, last_day=END.date(), days=4)
        again = windows.window_base_prepare(target_id=target.id, last_day=END.date(), days=4)
        short = windows.window_base_prepare(target_id=target.id, last_day=END.date(), days=2)

        shared = (END.date() - dt.timedelta(days=2), END.date() - dt.timedelta(days=1))
        assert (first, again, short) == ([shared], [], [])
        assert WindowBase.objects.filter(target=target).count() == 1

    def test_storing_the_same_snapshots_again_changes_no_rollup(self, target):
        snaps = _series(60, 48, seed=6)
        _store(target, snaps)
        before = _day_rows(target)
        _store(target, snaps)

        assert _day_rows(target) == before

    def test_a_rebuild_from_the_raw_rows_equals_the_rollups_kept_at_ingest(self, target):
        snaps = _series(30, 48 * 2, seed=12, instances=2)
        _store(target, snaps[:100])  # two collections: the second merges into the days the first began
        _store(target, snaps[100:])
        kept = _day_rows(target)

        segment_days_rebuild(target_id=target.id)

        assert _day_rows(target) == kept


def test_the_p95_rank_is_postgresqls_percentile_disc():
    n = np.arange(0, 2000)
    expected = [0] + [v - int(np.ceil(0.95 * v - 1e-9)) + 1 for v in range(1, 2000)]
    assert windows.p95_rank(n).tolist() == expected
    assert windows.p95_rank(np.array([168, 672, 720]))[:3].tolist() == [9, 34, 37]


def test_a_window_has_at_least_one_day():
    with pytest.raises(ValueError, match="at least one day"):
        windows.window_days(last_day=END.date(), days=0)
