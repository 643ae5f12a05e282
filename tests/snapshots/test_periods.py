"""A chosen period's figures: equal to the stored statistics computed directly, unknown where not measured,
and two periods compared per segment (order, new and gone)."""

from __future__ import annotations

import datetime as dt
import math

import numpy as np
import pytest

from apps.core.time import day_bounds
from apps.snapshots import windows
from apps.snapshots.models import Segment, SegmentStat, WindowBase
from apps.snapshots.period_compare import BOTH, GONE, NEW, UNKNOWN, comparison_order, periods_compare
from apps.snapshots.periods import period_coverage, segment_period_figures, target_period_figures
from apps.snapshots.services import collection_store
from apps.targets.base import CollectState
from apps.targets.models import Target
from apps.targets.rows import Collection, DatabaseInfo, SegmentKey, Snapshot
from apps.targets.rows import SegmentStat as StatRow
from tests.snapshots.stored_series import END, A, B, series, store

C = SegmentKey("APP", "NEWCOMER", "", "TABLE")


def _ids(target: Target) -> dict[str, int]:
    return {seg.object_name: seg.id for seg in Segment.objects.filter(target=target)}


def _direct(segment_id: int, start: dt.datetime, stop: dt.datetime, statistic: str) -> float:
    """The figure straight from the stored rows: per snapshot (read + write) / interval, then their
    percentile_disc(0.95) or mean (a demo target: one instance, complete snapshots)."""
    values = [(r + w) / s for r, w, s in SegmentStat.objects.filter(
        segment_id=segment_id, end_at__gte=start, end_at__lt=stop).values_list(
        "physical_read_requests", "physical_write_requests", "interval_s")]
    if statistic == "avg":
        return sum(values) / len(values)
    ordered = sorted(values)
    return ordered[math.ceil(0.95 * len(ordered)) - 1]


@pytest.fixture
def target(db) -> Target:
    return Target.objects.create(name="p", mode=Target.Mode.DEMO)


def _top_n(target: Target, snaps: list[tuple[int, dt.datetime, dict]]) -> None:
    """AWR-like top-N snapshots: ``stats`` maps a key to (reads, writes), None where not captured."""
    rows = tuple(
        Snapshot(dbid=7, instance_number=1, snap_id=snap_id, begin_at=end - dt.timedelta(hours=1), end_at=end,
                 startup_at=END - dt.timedelta(days=60), top_n_only=True,
                 segment_stats=tuple(StatRow(key=key, tablespace_name="DATA", obj_number=1, dataobj_number=1,
                                             physical_read_requests=r, physical_write_requests=w)
                                     for key, (r, w) in stats.items()))
        for snap_id, end, stats in snaps)
    collection = Collection(database=DatabaseInfo(dbid=7, db_name="W", release="19.0.0.0.0", is_rac=False,
                                                  instances=(1,)), snapshots=rows)
    collection_store(target=target, collection=collection, kind="awr",
                     state=CollectState(now=END, history_start_at=END - dt.timedelta(days=30)))


@pytest.mark.django_db
class SegmentPeriodFiguresTests:
    @pytest.mark.parametrize("statistic", ["p95", "avg"])
    def test_a_pages_rows_get_the_figures_computed_directly_from_the_stored_statistics(self, target, statistic):
        store(target, series(60, 24 * 6, seed=3))
        ids = _ids(target)
        start, stop = day_bounds(END.date() - dt.timedelta(days=2), END.date() - dt.timedelta(days=1))

        got = segment_period_figures(target_id=target.id, segment_ids=list(ids.values()), start_at=start,
                                     stop_at=stop, statistic=statistic, sizes_gb={ids["ORDERS"]: 2.0})

        for name, pk in ids.items():
            assert got[pk].measured
            assert got[pk].iops == pytest.approx(_direct(pk, start, stop, statistic), rel=1e-12), name
        assert got[ids["ORDERS"]].intensity == pytest.approx(got[ids["ORDERS"]].iops / 2.0)

    def test_the_average_and_the_p95_differ_on_a_bursty_segment(self, target):
        store(target, series(60, 24 * 3, seed=5))
        pk = _ids(target)["ORDERS"]
        start, stop = day_bounds(END.date() - dt.timedelta(days=2), END.date())

        p95, avg = (segment_period_figures(target_id=target.id, segment_ids=[pk], start_at=start, stop_at=stop,
                                           statistic=statistic)[pk].iops for statistic in ("p95", "avg"))

        assert p95 > avg > 0

    def test_a_period_reads_only_the_rows_asked_for(self, target):
        store(target, series(60, 24, seed=1))
        ids = _ids(target)
        start, stop = day_bounds(END.date(), END.date())

        got = segment_period_figures(target_id=target.id, segment_ids=[ids["ORDERS"]], start_at=start,
                                     stop_at=stop, statistic="p95")

        assert list(got) == [ids["ORDERS"]]

    def test_a_period_without_snapshots_leaves_every_figure_unknown(self, target):
        store(target, series(60, 24, seed=1))
        ids = _ids(target)
        start, stop = day_bounds(END.date() - dt.timedelta(days=10), END.date() - dt.timedelta(days=9))

        got = segment_period_figures(target_id=target.id, segment_ids=list(ids.values()), start_at=start,
                                     stop_at=stop, statistic="avg")

        assert period_coverage(target_id=target.id, start_at=start, stop_at=stop).empty
        assert all(not f.measured and f.iops is None for f in got.values())

    def test_a_segment_top_n_snapshots_did_not_capture_stays_unknown_never_zero(self, target):
        t = END - dt.timedelta(hours=2)
        _top_n(target, [(1, t, {A: (3600, 0), B: (None, 360), C: (36, 0)}), (2, t + dt.timedelta(hours=1), {A: (7200, 0)})])
        ids = _ids(target)
        start, stop = day_bounds(END.date(), END.date())

        got = segment_period_figures(target_id=target.id, segment_ids=list(ids.values()), start_at=start,
                                     stop_at=stop, statistic="avg")

        assert got[ids["ORDERS"]].measured and got[ids["ORDERS"]].iops == pytest.approx(1.5)
        assert not got[ids["Lines"]].measured and got[ids["Lines"]].iops is None  # its reads not captured
        # Captured in one top-N snapshot of two: its average is not known.
        assert not got[ids["NEWCOMER"]].measured and got[ids["NEWCOMER"]].iops is None


@pytest.mark.django_db
class TargetPeriodFiguresTests:
    @pytest.mark.parametrize("statistic", ["p95", "avg"])
    def test_the_rollups_give_the_raw_figures_of_any_days(self, target, statistic):
        store(target, series(60, 24 * 8, seed=7))
        first, last = END.date() - dt.timedelta(days=5), END.date() - dt.timedelta(days=3)

        rolled = target_period_figures(target_id=target.id, first_day=first, last_day=last, statistic=statistic)
        raw = windows.raw_figures(target.id, *day_bounds(first, last), statistic=statistic)

        order_a, order_b = np.argsort(rolled.segment_id), np.argsort(raw.segment_id)
        assert rolled.segment_id[order_a].tolist() == raw.segment_id[order_b].tolist()
        assert np.allclose(rolled.iops[order_a], raw.iops[order_b], rtol=1e-12)

    def test_the_recommendations_window_base_is_read_instead_of_its_days(self, target, monkeypatch):
        from apps.snapshots import periods

        store(target, series(60, 24 * 8, seed=9))
        windows.window_figures(target_id=target.id, last_day=END.date(), days=5)  # as a refresh does
        first = END.date() - dt.timedelta(days=4)
        read, day_rollup = [], periods.day_rollup
        monkeypatch.setattr(periods, "day_rollup", lambda **kw: read.append(kw["day"]) or day_rollup(**kw))

        rolled = target_period_figures(target_id=target.id, first_day=first, last_day=END.date(), statistic="p95")

        assert read == [END.date()]
        raw = windows.raw_figures(target.id, *day_bounds(first, END.date()), statistic="p95")
        order_a, order_b = np.argsort(rolled.segment_id), np.argsort(raw.segment_id)
        assert np.allclose(rolled.iops[order_a], raw.iops[order_b], rtol=1e-12)

    def test_a_period_stores_no_window_base(self, target):
        store(target, series(60, 24 * 8, seed=7))
        target_period_figures(target_id=target.id, first_day=END.date() - dt.timedelta(days=4),
                              last_day=END.date() - dt.timedelta(days=2), statistic="p95")

        assert not WindowBase.objects.filter(target=target).exists()


def _hourly(snap_from: int, first_end: dt.datetime, hours: int, stats: dict) -> list[Snapshot]:
    return [Snapshot(dbid=7, instance_number=1, snap_id=snap_from + h, begin_at=first_end + dt.timedelta(hours=h - 1),
                     end_at=first_end + dt.timedelta(hours=h), startup_at=END - dt.timedelta(days=60),
                     top_n_only=False,
                     segment_stats=tuple(StatRow(key=key, tablespace_name="DATA", obj_number=1, dataobj_number=1,
                                                 physical_read_requests=r, physical_write_requests=w)
                                         for key, (r, w) in stats.items()))
            for h in range(hours)]


@pytest.mark.django_db
class PeriodsCompareTests:
    def test_segments_are_ordered_by_change_and_new_or_gone_are_said_so(self, target):
        day_a = dt.datetime(2026, 11, 18, 1, tzinfo=dt.timezone.utc)
        day_b = dt.datetime(2026, 11, 20, 1, tzinfo=dt.timezone.utc)
        gone = SegmentKey("APP", "GONE", "", "TABLE")
        store(target, _hourly(1, day_a, 3, {A: (3600, 0), B: (36_000, 0), gone: (720, 0)})
               + _hourly(100, day_b, 3, {A: (7200, 0), B: (36_000 * 3, 3600), C: (1800, 0)}))
        ids = _ids(target)

        result = periods_compare(target_id=target.id, a_days=(day_a.date(), day_a.date()),
                                 b_days=(day_b.date(), day_b.date()), statistic="avg")

        row = {int(pk): i for i, pk in enumerate(result.segment_id)}
        assert result.status[row[ids["ORDERS"]]] == BOTH
        assert result.change[row[ids["ORDERS"]]] == pytest.approx(1.0)
        assert result.relative[row[ids["ORDERS"]]] == pytest.approx(1.0)
        assert result.status[row[ids["NEWCOMER"]]] == NEW and math.isnan(result.relative[row[ids["NEWCOMER"]]])
        assert result.change[row[ids["NEWCOMER"]]] == pytest.approx(0.5)
        assert result.status[row[ids["GONE"]]] == GONE and result.change[row[ids["GONE"]]] == pytest.approx(-0.2)
        by_change = [int(result.segment_id[i]) for i in comparison_order(result, order="change")]
        assert by_change == [ids["Lines"], ids["ORDERS"], ids["NEWCOMER"], ids["GONE"]]
        by_fall = [int(result.segment_id[i]) for i in comparison_order(result, order="fall")]
        assert by_fall[0] == ids["GONE"]
        by_relative = [int(result.segment_id[i]) for i in comparison_order(result, order="relative")]
        assert by_relative[:2] == [ids["Lines"], ids["ORDERS"]]  # +2.03 and +1.0; new and gone have none

    def test_a_segment_absent_from_top_n_snapshots_is_unknown_not_new(self, target):
        day_a = dt.datetime(2026, 11, 18, 1, tzinfo=dt.timezone.utc)
        day_b = dt.datetime(2026, 11, 20, 1, tzinfo=dt.timezone.utc)
        _top_n(target, [(1, day_a, {A: (3600, 0)}), (2, day_b, {A: (3600, 0), C: (7200, 0)})])
        ids = _ids(target)

        result = periods_compare(target_id=target.id, a_days=(day_a.date(), day_a.date()),
                                 b_days=(day_b.date(), day_b.date()), statistic="avg")

        row = {int(pk): i for i, pk in enumerate(result.segment_id)}
        assert result.status[row[ids["NEWCOMER"]]] == UNKNOWN
        assert math.isnan(result.a_iops[row[ids["NEWCOMER"]]]) and math.isnan(result.change[row[ids["NEWCOMER"]]])
        assert result.status[row[ids["ORDERS"]]] == BOTH and result.change[row[ids["ORDERS"]]] == 0.0
