"""A day still going on is rolled up into a part (RollupHour) instead of being rewritten whole every hour."""

from __future__ import annotations

import datetime as dt

import pytest

from apps.snapshots import rollups, windows
from apps.snapshots.models import RollupDay, RollupHour, Snapshot, WindowBase
from apps.snapshots.rollups import PARTS_PER_DAY, day_versions, segment_days_roll_up
from apps.snapshots.services import collection_store
from apps.targets.base import CollectState
from apps.targets.models import Target
from apps.targets.rows import Collection, DatabaseInfo
from tests.snapshots.stored_series import END, assert_same, of_database, series, store

DAY = END.date()


def _collected(target: Target, *snapshots) -> None:
    """One collection of ``snapshots``, stored and rolled up as at their end (their day still going on)."""
    collection = Collection(database=DatabaseInfo(dbid=snapshots[0].dbid, db_name="W", release="19.0.0.0.0",
                                                  is_rac=False, instances=(1,)), snapshots=snapshots)
    end = max(snap.end_at for snap in snapshots)
    collection_store(target=target, collection=collection, kind="demo",
                     state=CollectState(now=end, history_start_at=END - dt.timedelta(days=30)))
    segment_days_roll_up(target_id=target.id, now=end)


def _as_the_raw_statistics(target: Target, days: int) -> None:
    assert_same(windows.window_figures(target_id=target.id, last_day=DAY, days=days),
                 windows.raw_window_figures(target_id=target.id, last_day=DAY, days=days))


def _parts(target: Target) -> int:
    """The roll-ups the target's parts hold (one part a day)."""
    parts = list(RollupHour.objects.filter(target=target).values_list("day", "roll_ups"))
    assert len(parts) == len({day for day, _ in parts})
    return sum(roll_ups for _, roll_ups in parts)


@pytest.fixture
def target(db) -> Target:
    return Target.objects.create(name="hours", mode=Target.Mode.DEMO)


@pytest.mark.django_db
class RollupHourTests:
    def test_an_open_days_hourly_roll_ups_append_parts_and_rewrite_its_rollup_every_few_hours(self, target):
        snaps = series(60, 48, seed=61)  # the day before END's, then END's 24 hours
        store(target, snaps[:24])
        versions = set()

        for hour, snap in enumerate(snaps[24:], start=1):
            _collected(target, snap)

            assert _parts(target) == hour % PARTS_PER_DAY
            stored = RollupDay.objects.filter(target=target, day=DAY).first()
            versions.add(stored.version if stored else None)
            _as_the_raw_statistics(target, days=1)
            _as_the_raw_statistics(target, days=2)

        # Written whole at every PARTS_PER_DAY-th hour only (None: before the first).
        assert len(versions - {None}) == 24 // PARTS_PER_DAY

    def test_the_parts_are_merged_into_the_days_rollup_once_the_day_has_ended(self, target):
        for snap in series(60, 3, seed=62):
            _collected(target, snap)
        before = windows.window_figures(target_id=target.id, last_day=DAY, days=1)
        versions = day_versions(target_id=target.id, last_day=DAY)
        assert _parts(target) == 3 and not RollupDay.objects.filter(target=target).exists()

        segment_days_roll_up(target_id=target.id, now=END + dt.timedelta(hours=1))

        assert _parts(target) == 0
        # The same rollup, so the same version: nothing built from the day looks stale.
        assert day_versions(target_id=target.id, last_day=DAY) == versions
        assert RollupDay.objects.get(target=target, day=DAY).dbid == 7
        assert_same(windows.window_figures(target_id=target.id, last_day=DAY, days=1), before)
        _as_the_raw_statistics(target, days=1)

    def test_a_base_prepared_over_the_open_day_stays_current_when_its_parts_are_merged(self, target):
        snaps = series(60, 48, seed=63)
        store(target, snaps[:24])
        for snap in snaps[24:27]:
            _collected(target, snap)
        windows.window_base_prepare(target_id=target.id, last_day=DAY, days=2, day_ends=True)
        prepared = WindowBase.objects.get(target=target, first_day=DAY, last_day=DAY)

        segment_days_roll_up(target_id=target.id, now=END + dt.timedelta(hours=1))

        assert windows.window_base_prepare(target_id=target.id, last_day=DAY, days=2, day_ends=True) == []
        assert WindowBase.objects.get(target=target, first_day=DAY, last_day=DAY).built_at == prepared.built_at

    def test_deleting_a_days_snapshots_forgets_its_parts(self, target):
        snaps = series(60, 48, seed=64)
        store(target, snaps[:24])
        for snap in snaps[24:28]:
            _collected(target, snap)
        assert _parts(target) == 4

        Snapshot.objects.filter(target=target, end_at=snaps[25].end_at).delete()

        assert _parts(target) == 0
        segment_days_roll_up(target_id=target.id, now=END)
        _as_the_raw_statistics(target, days=2)

    def test_a_late_instance_rebuilds_the_open_day_without_its_parts(self, target):
        snaps = series(60, 4, seed=65, instances=2)
        for first in range(0, 8, 2):
            _collected(target, *snaps[first:first + (1 if first == 4 else 2)])
        assert _parts(target) == 4

        _collected(target, snaps[5])  # instance 2 of the third snapshot, late

        assert _parts(target) == 0
        _as_the_raw_statistics(target, days=1)

    def test_a_new_database_drops_the_parts_of_the_old_one(self, target):
        for snap in of_database(series(60, 3, seed=66), 1):
            _collected(target, snap)

        _collected(target, of_database(series(60, 1, seed=67, first_snap=50), 2)[0])

        assert set(RollupHour.objects.filter(target=target).values_list("dbid", flat=True)) == {2}
        _as_the_raw_statistics(target, days=1)

    def test_a_day_with_parts_reads_as_its_whole_rollup(self, target):
        for snap in series(60, 5, seed=68):
            _collected(target, snap)
        assert _parts(target) == 5
        parts = rollups.day_rollup(target_id=target.id, day=DAY)

        rollups.segment_days_rebuild(target_id=target.id)  # as at the clock's time: the day has ended

        whole = rollups.day_rollup(target_id=target.id, day=DAY)
        assert _parts(target) == 0
        assert parts.segment_id.tolist() == whole.segment_id.tolist()
        assert parts.tops.tolist() == whole.tops.tolist() and parts.counters.tolist() == whole.counters.tolist()


@pytest.mark.django_db
class OpenDayPeriodTests:
    @pytest.mark.parametrize("statistic", ["p95", "avg"])
    def test_a_period_ending_on_the_open_day_counts_the_hours_in_its_part(self, target, statistic):
        from apps.core.time import day_bounds
        from apps.snapshots.periods import target_period_figures

        snaps = series(60, 48, seed=63)  # the day before END's, then END's 24 hours
        store(target, snaps[:24])
        for snap in snaps[24:27]:  # the open day's first roll-ups: a part, no RollupDay yet
            _collected(target, snap)
        assert not RollupDay.objects.filter(target=target, day=DAY).exists()  # only a part so far

        rolled = target_period_figures(target_id=target.id, first_day=DAY - dt.timedelta(days=1), last_day=DAY,
                                       statistic=statistic, roll_up=False)
        raw = windows.raw_figures(target.id, *day_bounds(DAY - dt.timedelta(days=1), DAY), statistic=statistic)

        assert dict(zip(rolled.segment_id.tolist(), rolled.iops.tolist())) == pytest.approx(
            dict(zip(raw.segment_id.tolist(), raw.iops.tolist())), rel=1e-12)
