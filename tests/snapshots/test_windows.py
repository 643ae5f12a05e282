"""Window figures from the daily rollups equal those computed from every raw statistic."""

from __future__ import annotations

import datetime as dt

import numpy as np
import pytest

from apps.snapshots import windows
from apps.snapshots.activity import Activity
from apps.snapshots.models import RollupDay, WindowBase
from apps.snapshots.rollups import segment_days_rebuild
from apps.targets.models import Target
from tests.snapshots.stored_series import END, assert_same, days_read, series, store


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


@pytest.fixture
def target(db) -> Target:
    return Target.objects.create(name="w", mode=Target.Mode.DEMO)


@pytest.mark.django_db
class WindowFiguresTests:
    @pytest.mark.parametrize("statistic", windows.STATISTICS)
    @pytest.mark.parametrize("days", [1, 3, 7])
    def test_the_rollups_give_the_raw_figures_for_hourly_snapshots(self, target, statistic, days):
        store(target, series(60, 24 * 9, seed=days))

        rolled = windows.window_figures(target_id=target.id, last_day=END.date(), days=days, statistic=statistic)
        raw = windows.raw_window_figures(target_id=target.id, last_day=END.date(), days=days, statistic=statistic)

        assert len(rolled) == 2
        assert_same(rolled, raw)

    def test_the_p95_stays_exact_when_days_keep_only_their_top_values(self, target):
        # 30-minute snapshots: 48 a day, more than TOP_IOPS, so every day is cut to its top values.
        store(target, series(30, 48 * 7, seed=11))
        assert max(row[5] for row in _day_rows(target)) > windows.TOP_IOPS

        rolled = windows.window_figures(target_id=target.id, last_day=END.date(), days=7)

        assert_same(rolled, windows.raw_window_figures(target_id=target.id, last_day=END.date(), days=7))

    def test_a_window_whose_p95_needs_more_than_the_kept_values_is_read_from_the_raw_rows(self, target, monkeypatch):
        store(target, series(60, 24 * 3, seed=5))
        monkeypatch.setattr(windows, "TOP_IOPS", 2)  # k for 72 hourly values is 4

        rolled = windows.window_figures(target_id=target.id, last_day=END.date(), days=3)

        assert_same(rolled, windows.raw_window_figures(target_id=target.id, last_day=END.date(), days=3))
        assert not WindowBase.objects.filter(target=target).exists()

    def test_rac_instances_of_one_snapshot_count_as_one_figure(self, target):
        store(target, series(60, 48, seed=3, instances=2))

        rolled = windows.window_figures(target_id=target.id, last_day=END.date(), days=2)

        assert_same(rolled, windows.raw_window_figures(target_id=target.id, last_day=END.date(), days=2))

    def test_a_day_with_snapshots_ignores_that_days_samples(self, target):
        store(target, series(60, 48, seed=8))
        # V$ samples on both days measure the same hours again; one earlier day has samples only.
        store(target, series(60, 72, seed=9, first_snap=5000), kind="sample")

        rolled = windows.window_figures(target_id=target.id, last_day=END.date(), days=3)
        raw = windows.raw_window_figures(target_id=target.id, last_day=END.date(), days=3)

        assert_same(rolled, raw)
        assert rolled.intervals.max() <= 72 and not rolled.from_samples.any()

    def test_the_window_base_is_rebuilt_when_one_of_its_days_changes(self, target):
        snaps = series(60, 24 * 4, seed=4)
        late = snaps.pop(30)  # a snapshot of an earlier day arrives later
        store(target, snaps)
        windows.window_figures(target_id=target.id, last_day=END.date(), days=4)
        built = WindowBase.objects.get(target=target).version

        store(target, [late])
        rolled = windows.window_figures(target_id=target.id, last_day=END.date(), days=4)

        assert WindowBase.objects.get(target=target).version > built
        assert_same(rolled, windows.raw_window_figures(target_id=target.id, last_day=END.date(), days=4))

    def test_a_base_kept_for_the_maximum_is_rebuilt_for_a_p95(self, target):
        store(target, series(60, 24 * 5, seed=13))
        windows.window_figures(target_id=target.id, last_day=END.date(), days=5, statistic="max")
        assert WindowBase.objects.get(target=target).ranks == 1

        rolled = windows.window_figures(target_id=target.id, last_day=END.date(), days=5)

        assert WindowBase.objects.get(target=target).ranks >= windows.p95_rank(np.array([120]))[0]
        assert_same(rolled, windows.raw_window_figures(target_id=target.id, last_day=END.date(), days=5))

    def test_the_next_days_window_extends_the_base_prepared_the_day_before(self, target, monkeypatch):
        store(target, series(60, 24 * 6, seed=21))
        today, yesterday = END.date(), END.date() - dt.timedelta(days=1)
        windows.window_figures(target_id=target.id, last_day=yesterday, days=4)  # yesterday's refresh
        assert windows.window_base_prepare(target_id=target.id, last_day=yesterday, days=4) == [
            (yesterday - dt.timedelta(days=2), yesterday - dt.timedelta(days=1))]
        read = days_read(monkeypatch)

        rolled = windows.window_figures(target_id=target.id, last_day=today, days=4)

        # Two days' rollups: the one just ended (added to the prepared base) and today's.
        assert sorted(read) == [yesterday, today]
        assert_same(rolled, windows.raw_window_figures(target_id=target.id, last_day=today, days=4))
        # The base of yesterday's window is gone; today's was built from the one prepared for it.
        assert sorted(WindowBase.objects.filter(target=target).values_list("first_day", "last_day")) == [
            (today - dt.timedelta(days=3), yesterday - dt.timedelta(days=1)), (today - dt.timedelta(days=3), yesterday)]

    def test_a_base_prepared_at_the_days_last_collection_serves_the_next_days_first_window(self, target, monkeypatch):
        store(target, series(60, 24 * 6, seed=24))
        today, yesterday = END.date(), END.date() - dt.timedelta(days=1)
        windows.window_figures(target_id=target.id, last_day=yesterday, days=4)
        windows.window_base_prepare(target_id=target.id, last_day=yesterday, days=4, day_ends=True)
        read = days_read(monkeypatch)

        rolled = windows.window_figures(target_id=target.id, last_day=today, days=4)

        assert read == [today]
        assert_same(rolled, windows.raw_window_figures(target_id=target.id, last_day=today, days=4))

    def test_a_prepared_base_whose_day_changed_is_built_again_from_the_days(self, target, monkeypatch):
        snaps = series(60, 24 * 6, seed=22)
        late = snaps.pop(24 * 3 + 5)  # of a day both windows share, arriving after the base was prepared
        store(target, snaps)
        yesterday = END.date() - dt.timedelta(days=1)
        windows.window_figures(target_id=target.id, last_day=yesterday, days=4)
        windows.window_base_prepare(target_id=target.id, last_day=yesterday, days=4)
        store(target, [late])
        read = days_read(monkeypatch)

        rolled = windows.window_figures(target_id=target.id, last_day=END.date(), days=4)

        assert len(read) == 4  # every day of the window
        assert_same(rolled, windows.raw_window_figures(target_id=target.id, last_day=END.date(), days=4))

    def test_a_base_is_prepared_once_and_none_shared_by_windows_of_two_days(self, target):
        store(target, series(60, 24 * 5, seed=23))

        first = windows.window_base_prepare(target_id=target.id, last_day=END.date(), days=4)
        again = windows.window_base_prepare(target_id=target.id, last_day=END.date(), days=4)
        short = windows.window_base_prepare(target_id=target.id, last_day=END.date(), days=2)

        shared = (END.date() - dt.timedelta(days=2), END.date() - dt.timedelta(days=1))
        assert (first, again, short) == ([shared], [], [])
        assert WindowBase.objects.filter(target=target).count() == 1

    def test_storing_the_same_snapshots_again_changes_no_rollup(self, target):
        snaps = series(60, 48, seed=6)
        store(target, snaps)
        before = _day_rows(target)
        store(target, snaps)

        assert _day_rows(target) == before

    def test_a_rebuild_from_the_raw_rows_equals_the_rollups_kept_at_ingest(self, target):
        snaps = series(30, 48 * 2, seed=12, instances=2)
        store(target, snaps[:100])  # two collections: the second merges into the days the first began
        store(target, snaps[100:])
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
