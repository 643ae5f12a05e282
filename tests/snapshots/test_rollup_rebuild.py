"""Daily rollups are rebuilt whenever their snapshots change: deleted (any way), collected again, or late."""

from __future__ import annotations

import datetime as dt

import numpy as np
import pytest
import time_machine
from django.db import connection

from apps.core.config import get_config
from apps.core.time import day_bounds
from apps.snapshots import activity, windows
from apps.snapshots.models import RollupDay, SegmentStat, Snapshot, WindowBase
from apps.snapshots.rollups import segment_days_roll_up
from apps.snapshots.services import snapshot_collect, snapshot_prune
from apps.targets.models import Target
from tests.snapshots.stored_series import (
    END,
    assert_as_the_raw_statistics,
    assert_same,
    last_snapshot_day,
    series,
    store,
    window_of,
)

NOW = dt.datetime(2026, 11, 20, 12, 10, tzinfo=dt.timezone.utc)


def _collect(target: Target) -> None:
    """A collection of the demo at NOW, then the roll-up its refresh begins with (the refresh is a task of
    its own, sent when the collection commits)."""
    with time_machine.travel(NOW):
        run = snapshot_collect(target_id=target.id, trigger="command")
    assert run.status == "succeeded", run.error
    segment_days_roll_up(target_id=target.id)


@pytest.fixture
def collected(demo_target) -> Target:
    """The demo target after its first collection: eight days of hourly snapshots, rolled up."""
    _collect(demo_target)
    return demo_target


@pytest.mark.django_db
class RollupRebuildTests:
    def test_deleting_every_snapshot_and_collecting_again_gives_the_same_figures(self, collected):
        before = window_of(collected)
        assert len(before) >= 60

        Snapshot.objects.filter(target=collected).delete()
        # Nothing is left that was derived from them.
        assert not RollupDay.objects.filter(target=collected).exists()
        assert not WindowBase.objects.filter(target=collected).exists()
        _collect(collected)

        assert_same(window_of(collected), before)
        assert_as_the_raw_statistics(collected)

    def test_a_days_snapshots_deleted_by_raw_sql_leave_the_other_days_figures(self, collected):
        window_of(collected)  # a window base covering the day
        start, end = day_bounds(last_snapshot_day(collected) - dt.timedelta(days=2))
        gone = list(Snapshot.objects.filter(target=collected, end_at__gte=start, end_at__lt=end)
                    .values_list("id", flat=True))

        with connection.cursor() as cursor:
            # As a DBA would, outside the ORM: the children with database foreign keys first.
            cursor.execute("DELETE FROM snapshots_sysstat WHERE snapshot_id = ANY(%s)", [gone])
            cursor.execute("DELETE FROM snapshots_tablespaceio WHERE snapshot_id = ANY(%s)", [gone])
            cursor.execute("DELETE FROM snapshots_snapshot WHERE id = ANY(%s)", [gone])
        segment_days_roll_up(target_id=collected.id)

        assert_as_the_raw_statistics(collected)
        assert not RollupDay.objects.filter(target=collected, day=start.date()).exists()
        # SegmentStat has no database foreign key: its rows went with their snapshots all the same.
        assert not SegmentStat.objects.filter(snapshot_id__in=gone).exists()

    def test_a_prune_that_cuts_a_day_leaves_what_is_left_of_it_rolled_up(self, db, settings):
        target = Target.objects.create(name="pruned", mode=Target.Mode.DEMO)
        store(target, series(60, 24 * 5, seed=41))
        windows.window_figures(target_id=target.id, last_day=END.date(), days=4)
        settings.TIERSCOPE = {**getattr(settings, "TIERSCOPE", {}), "RETENTION_DAYS": 2}
        get_config.cache_clear()
        try:
            # The horizon falls at 11:30 two days before the last: that day keeps its snapshots from 11:30 on.
            snapshot_prune(now=END - dt.timedelta(hours=12))
        finally:
            get_config.cache_clear()
        segment_days_roll_up(target_id=target.id)

        rolled = windows.window_figures(target_id=target.id, last_day=END.date(), days=4)

        assert_same(rolled, windows.raw_window_figures(target_id=target.id, last_day=END.date(), days=4))
        assert rolled.intervals.max() == 13 + 24 + 24
        assert sorted(RollupDay.objects.filter(target=target).values_list("day", flat=True)) == [
            END.date() - dt.timedelta(days=n) for n in (2, 1, 0)]

    def test_a_roll_up_reads_as_many_snapshots_at_once_as_the_tunable_says(self, db, settings, monkeypatch):
        from apps.snapshots import rollups

        target = Target.objects.create(name="one-by-one", mode=Target.Mode.DEMO)
        reads = []
        real_fetch = rollups.fetch_arrays

        def fetch_arrays(cursor, sql, params, columns):
            if sql == rollups.PER_SNAPSHOT_SQL:
                reads.append(len(params[0]))
            return real_fetch(cursor, sql, params, columns)

        monkeypatch.setattr(rollups, "fetch_arrays", fetch_arrays)
        settings.TIERSCOPE = {**getattr(settings, "TIERSCOPE", {}), "ROLLUP_SNAPSHOTS_PER_READ": 1}
        get_config.cache_clear()
        try:
            store(target, series(60, 24 * 2, seed=43))  # stored, then rolled up
        finally:
            get_config.cache_clear()

        assert len(reads) == 24 * 2 and set(reads) == {1}
        rolled = windows.window_figures(target_id=target.id, last_day=END.date(), days=2)
        assert_same(rolled, windows.raw_window_figures(target_id=target.id, last_day=END.date(), days=2))

    def test_a_late_rac_instance_is_summed_with_its_siblings(self, db):
        target = Target.objects.create(name="rac", mode=Target.Mode.DEMO)
        snaps = series(60, 48, seed=42, instances=2)
        late = snaps.pop(2 * 30 + 1)  # instance 2 of a snapshot whose instance 1 is rolled up without it
        store(target, snaps)
        windows.window_figures(target_id=target.id, last_day=END.date(), days=2)

        store(target, [late])
        rolled = windows.window_figures(target_id=target.id, last_day=END.date(), days=2)

        assert_same(rolled, windows.raw_window_figures(target_id=target.id, last_day=END.date(), days=2))
        assert rolled.intervals.max() == 48

    def test_an_hourly_roll_up_reads_only_the_new_snapshot(self, db, monkeypatch):
        target = Target.objects.create(name="hourly", mode=Target.Mode.DEMO)
        snaps = series(60, 24, seed=43, instances=2)
        store(target, snaps[:-2])
        read = []
        from_snapshots = activity.from_snapshots

        def recorded(**kwargs):
            read.append(np.asarray(kwargs["segment_id"]).size)
            return from_snapshots(**kwargs)

        monkeypatch.setattr(activity, "from_snapshots", recorded)
        store(target, snaps[-2:])  # the last hour's two instances, together

        # Their rows only (at most two segments each), not the day's again.
        assert sum(read) <= 4
        assert_as_the_raw_statistics(target, days=1)
