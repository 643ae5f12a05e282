"""A target's database identity: windows hold the snapshots of its current DBID only, never two databases summed."""

from __future__ import annotations

import datetime as dt

import pytest

from apps.snapshots import windows
from apps.snapshots.models import RollupDay, Segment, WindowBase
from apps.snapshots.models import Snapshot as SnapshotModel
from apps.snapshots.rollups import segment_days_roll_up
from apps.snapshots.selectors import Incarnation, database_incarnations
from apps.targets.models import Target
from tests.snapshots.stored_series import END, of_database, series, store

DAYS = 4


def _by_segment(target: Target, figures: windows.WindowArrays) -> dict[tuple, tuple]:
    """Segment identity -> its window figures (targets compared have their own segment ids)."""
    keys = dict(Segment.objects.filter(target=target).values_list("id", "object_name"))
    return {
        keys[int(figures.segment_id[i])]: (
            round(float(figures.iops[i]), 9), round(float(figures.covered_s[i]), 3), int(figures.intervals[i]),
            *(int(getattr(figures, name)[i]) for name in windows.COUNTERS), bool(figures.from_samples[i]))
        for i in range(len(figures))
    }


def _window(target: Target, *, raw: bool = False, days: int = DAYS, statistic: str = "p95") -> windows.WindowArrays:
    compute = windows.raw_window_figures if raw else windows.window_figures
    return compute(target_id=target.id, last_day=END.date(), days=days, statistic=statistic)


@pytest.fixture
def recreated(db) -> Target:
    """DBID 1 for four days, then the database recreated as DBID 2 numbering the same snapshots of the last
    two days again (as the demo does: its snap_ids follow the clock), each rolled up and refreshed as
    collections would."""
    target = Target.objects.create(name="recreated", mode=Target.Mode.DEMO)
    store(target, of_database(series(60, 24 * DAYS, seed=31), 1))
    _window(target)  # rollups and a window base of DBID 1
    store(target, of_database(series(60, 48, seed=32), 2))
    return target


@pytest.fixture
def only_new(db) -> Target:
    """The same DBID 2 snapshots on a target that never saw DBID 1."""
    target = Target.objects.create(name="only-new", mode=Target.Mode.DEMO)
    store(target, of_database(series(60, 48, seed=32), 2))
    return target


@pytest.mark.django_db
class DatabaseIdentityTests:
    @pytest.mark.parametrize("statistic", windows.STATISTICS)
    def test_it_gives_the_window_of_the_new_database_alone(self, recreated, only_new, statistic):
        figures = _by_segment(recreated, _window(recreated, statistic=statistic))

        # Neither doubled nor zero: the figures of the new database, as if the old one never was.
        assert figures == _by_segment(only_new, _window(only_new, statistic=statistic))
        assert figures == _by_segment(only_new, _window(only_new, raw=True, statistic=statistic))
        assert figures["ORDERS"][0] > 0

    def test_the_raw_reference_keeps_the_databases_apart_too(self, recreated, only_new):
        assert _by_segment(recreated, _window(recreated, raw=True)) == _by_segment(only_new, _window(only_new, raw=True))

    def test_the_rollups_are_rebuilt_from_the_new_database_and_the_old_snapshots_kept(self, recreated):
        # History kept apart: DBID 1's snapshots stay; the rollups and bases hold DBID 2's days only.
        assert SnapshotModel.objects.filter(target=recreated, dbid=1).count() == 24 * DAYS
        assert set(RollupDay.objects.filter(target=recreated).values_list("day", "dbid")) == {
            (END.date() - dt.timedelta(days=1), 2), (END.date(), 2)}
        assert not WindowBase.objects.filter(target=recreated).exists()  # built from DBID 1: gone

    def test_a_late_snapshot_of_the_old_database_stays_out_of_the_windows(self, recreated, only_new):
        # Of a day both databases have (an import of an old AWR report, say), numbered apart from the rest.
        old = of_database(series(60, 24 * DAYS, seed=33, first_snap=1000), 1)[-30:-29]

        store(recreated, old)

        assert _by_segment(recreated, _window(recreated)) == _by_segment(only_new, _window(only_new))
        # Not left pending for every roll-up to look at again.
        assert not SnapshotModel.objects.filter(target=recreated, rolled_up=False).exists()

    def test_a_window_moving_back_to_an_earlier_database_is_rebuilt_from_it(self, db):
        target = Target.objects.create(name="restored", mode=Target.Mode.DEMO)
        store(target, of_database(series(60, 24 * DAYS, seed=34), 1))
        store(target, of_database(series(60, 24, seed=35), 2))
        _window(target)
        # DBID 2's snapshots deleted: DBID 1's latest snapshot is the latest again.
        SnapshotModel.objects.filter(target=target, dbid=2).delete()
        segment_days_roll_up(target_id=target.id)

        rolled, raw = _window(target), _window(target, raw=True)
        assert _by_segment(target, rolled) == _by_segment(target, raw)
        assert rolled.intervals.max() == 24 * DAYS

    def test_snapshots_of_two_kinds_under_one_snap_id_are_two_figures(self, db):
        # An AWR report imported beside the demo's own snapshots, numbered alike: not two RAC instances.
        target = Target.objects.create(name="kinds", mode=Target.Mode.DEMO)
        store(target, series(60, 48, seed=36))
        store(target, series(60, 48, seed=37), kind="report")

        rolled, raw = _window(target, days=2), _window(target, raw=True, days=2)

        assert _by_segment(target, rolled) == _by_segment(target, raw)
        assert rolled.intervals.max() == 96


@pytest.mark.django_db
class DatabaseIncarnationsTests:
    def test_it_lists_each_database_with_its_snapshots_first_seen_first(self, recreated):
        first_old = END - dt.timedelta(hours=24 * DAYS - 1)
        first_new = END - dt.timedelta(hours=47)

        assert database_incarnations(target_id=recreated.id) == [
            Incarnation(dbid=1, first_end_at=first_old, last_end_at=END, snapshots=24 * DAYS),
            Incarnation(dbid=2, first_end_at=first_new, last_end_at=END, snapshots=48),
        ]

    def test_it_is_empty_for_a_target_never_collected(self, db):
        target = Target.objects.create(name="new", mode=Target.Mode.DEMO)

        assert database_incarnations(target_id=target.id) == []

