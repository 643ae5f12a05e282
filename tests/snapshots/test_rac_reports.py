"""The per-instance AWR reports of one RAC snapshot pair are summed, whatever order they arrive in (issue 15, 2)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
import time_machine

from apps.snapshots.imports import report_import
from apps.snapshots.models import Segment, SegmentStat, Snapshot
from apps.targets.awr_report import parse_report
from apps.targets.awr_report.source import report_to_collection
from apps.targets.models import Target
from apps.tiering.models import Recommendation
from tests.snapshots.import_files import (
    GLOBAL,
    INSTANCE_1,
    INSTANCE_2,
    SAMPLES,
    as_instance_of_the_global_interval,
)

UTC = dt.timezone.utc


def _requests(name: str, object_name: str) -> tuple[int, float]:
    """(read + write requests of one segment, interval seconds) as the report lists them."""
    collection = report_to_collection(parse_report((SAMPLES / name).read_bytes(), filename=name))
    (snapshot,) = collection.snapshots
    stats = [s for s in snapshot.segment_stats if s.key.object_name == object_name]
    assert len(stats) == 1, stats
    stat = stats[0]
    return (stat.physical_read_requests or 0) + (stat.physical_write_requests or 0), snapshot.interval_seconds


@pytest.mark.django_db
@pytest.mark.parametrize("order", [(INSTANCE_1, INSTANCE_2), (INSTANCE_2, INSTANCE_1)], ids=["1-then-2", "2-then-1"])
def test_two_instance_reports_of_one_snapshot_pair_are_summed(order, seed_tiers, django_capture_on_commit_callbacks):
    target = Target.objects.create(name="orcl", mode=Target.Mode.REPORT, tier_set_id="seed-2009")
    first, second = (_requests(name, "IDL_UB2$") for name in order)

    # Each report imported on its own, the second a collection later (its instance "late" for the first's day).
    with time_machine.travel(dt.datetime(2014, 7, 10, 6, 0, tzinfo=UTC), tick=False):
        for name in order:
            with django_capture_on_commit_callbacks(execute=True):
                report_import(target=target, data=(SAMPLES / name).read_bytes(), filename=name)

    row = Recommendation.objects.current(target_id=target.id).get(segment__object_name="IDL_UB2$")
    # One snapshot pair, both instances: the figure is the sum over the interval (0.0199 read IOPS), not the
    # last instance's alone (0.0183). Neither report lists IDL_UB2$ by write requests: its writes are unknown
    # (so is its IOPS), at most the smallest value each instance's section lists (8 + 6 requests).
    assert row.read_iops == pytest.approx((first[0] + second[0]) / first[1], rel=1e-9)
    assert round(row.read_iops, 4) == 0.0199
    assert row.measured is False and row.iops is None and row.write_iops is None
    assert row.iops_bound == pytest.approx((first[0] + second[0] + 8 + 6) / first[1], rel=1e-9)


@pytest.mark.django_db
class GlobalAndInstanceReportTests:
    """Issue 15: a global RAC report and the instance reports of its interval never count twice."""

    def test_an_instance_report_after_the_global_one_adds_nothing_and_says_why(self):
        target = Target.objects.create(name="slob", mode=Target.Mode.REPORT)
        report_import(target=target, data=(SAMPLES / GLOBAL).read_bytes(), filename=GLOBAL)

        run = report_import(target=target, data=as_instance_of_the_global_interval(INSTANCE_1), filename="i1.txt")

        assert run.snapshots_added == 0
        assert list(Snapshot.objects.filter(target=target).values_list("instance_number", "snap_id")) == [(0, 177)]
        assert "instance 1's figures of snapshot 177 were not stored" in run.notes
        assert not SegmentStat.objects.filter(snapshot__target=target, segment__object_name="KOTAD$").exists()

    def test_a_global_report_after_the_instance_reports_replaces_them(self):
        target = Target.objects.create(name="slob", mode=Target.Mode.REPORT)
        from apps.snapshots.rollups import segment_days_roll_up
        from apps.snapshots.windows import window_figures

        for name in (INSTANCE_1, INSTANCE_2):
            report_import(target=target, data=as_instance_of_the_global_interval(name), filename=name)
        assert Snapshot.objects.filter(target=target).count() == 2
        segment_days_roll_up(target_id=target.id)  # the instance reports' day is rolled up already

        run = report_import(target=target, data=(SAMPLES / GLOBAL).read_bytes(), filename=GLOBAL)
        segment_days_roll_up(target_id=target.id)

        # One figure for the interval: the global report's (all instances), the instance reports' gone
        assert list(Snapshot.objects.filter(target=target).values_list("instance_number", "snap_id")) == [(0, 177)]
        assert not SegmentStat.objects.filter(snapshot__target=target, segment__object_name="KOTAD$").exists()
        assert "replaced the instance reports' figures of the same interval (instance 1, 2)" in run.notes
        # The day's rollup holds the global report's read requests alone
        global_reads = sum(s.stats.get("physical_read_requests") or 0
                           for s in parse_report((SAMPLES / GLOBAL).read_bytes(), filename=GLOBAL).segments)
        figures = window_figures(target_id=target.id, last_day=dt.date(2016, 9, 18), days=1, statistic="max")
        assert int(figures.read_requests.sum()) == global_reads


EXTRACTS = Path(__file__).resolve().parents[1] / "targets" / "extract" / "fixtures"


@pytest.mark.django_db
def test_the_instances_of_one_snapshot_in_an_extract_are_summed(seed_tiers, django_capture_on_commit_callbacks):
    from apps.snapshots.imports import extract_import

    target = Target.objects.create(name="racdb", mode=Target.Mode.REPORT, tier_set_id="seed-2009")

    # Snapshot 201 of instances 1 and 2 (seg_stat.csv): SALES.INVOICES 7,200 + 360 and 3,600 + 0 requests in 3,600 s
    with time_machine.travel(dt.datetime(2024, 5, 2, 10, 0, tzinfo=UTC), tick=False):
        with django_capture_on_commit_callbacks(execute=True):
            extract_import(target=target, path_or_zip=EXTRACTS / "rac")

    row = Recommendation.objects.current(target_id=target.id).get(segment__object_name="INVOICES")
    assert row.iops == pytest.approx((7200 + 360 + 3600 + 0) / 3600)
    assert row.read_requests == 7200 + 3600


@pytest.mark.django_db
def test_the_instances_of_one_awr_snapshot_collected_live_are_summed_in_the_window():
    """The live path (OracleSource, recorded rows): DBA_HIST_SEG_STAT rows of instances 1 and 2 for one snap_id
    are stored as two snapshots of one (kind, dbid, snap_id), which the rollups add up."""
    from apps.snapshots.rollups import segment_days_roll_up
    from apps.snapshots.services import collection_store
    from apps.snapshots.windows import window_figures
    from apps.targets.oracle.source import OracleSource
    from tests.targets.oracle.fakes import FakeConnect, load_recording
    from tests.targets.oracle.recorded_sources import rac_state

    recording = load_recording("rac_awr")
    (seg_stat,) = recording["statements"]["seg_stat"]
    # Instance 2 read App.OrderLines too in snapshot 101 (instance 1: 3,600 reads and 720 writes in 3,600 s)
    seg_stat["rows"].append([2, 101, "App", "OrderLines", None, "TABLE", "USERS", 76540, 76540, 1800, 0, 3600, 0,
                             0, 0, 450, 72000, 0, 1, 104857600])
    source = OracleSource(dsn="dbhost1:1521/PROD", user="TIERSCOPE", password="x", mode="awr",
                          connect=FakeConnect(recording))
    target = Target.objects.create(name="prod", mode=Target.Mode.AWR)
    state = rac_state()
    collection = source.collect(state)

    collection_store(target=target, collection=collection, kind="awr", state=state)
    segment_days_roll_up(target_id=target.id)
    figures = window_figures(target_id=target.id, last_day=dt.date(2024, 5, 6), days=1, statistic="max")

    stored = Snapshot.objects.filter(target=target, kind="awr", snap_id=101)
    assert sorted(stored.values_list("instance_number", flat=True)) == [1, 2]
    at = list(figures.segment_id).index(Segment.objects.get(target=target, object_name="OrderLines").id)
    # Snapshot 101, both instances: (3,600 + 720 + 1,800) / 3,600 s = 1.7 IOPS, not instance 1's 1.2
    assert figures.iops[at] == pytest.approx((3600 + 720 + 1800) / 3600)
    assert figures.read_requests[at] == 3600 + 1800 + 1800


@pytest.mark.django_db
def test_the_first_instance_report_of_a_rac_database_says_its_figures_are_lower_bounds(
        seed_tiers, django_capture_on_commit_callbacks):
    target = Target.objects.create(name="orcl", mode=Target.Mode.REPORT, tier_set_id="seed-2009")

    with time_machine.travel(dt.datetime(2014, 7, 10, 6, 0, tzinfo=UTC), tick=False):
        with django_capture_on_commit_callbacks(execute=True):
            first = report_import(target=target, data=(SAMPLES / INSTANCE_1).read_bytes(), filename=INSTANCE_1)
        with django_capture_on_commit_callbacks(execute=True):
            second = report_import(target=target, data=(SAMPLES / INSTANCE_2).read_bytes(), filename=INSTANCE_2)

    assert any("RAC database of 2 instances holds instance 1 only" in w and "lower bounds" in w
               for w in first.warnings)
    assert not any("RAC database of 2 instances" in w for w in second.warnings)
    rows = Recommendation.objects.current(target_id=target.id)
    assert rows.filter(segment__object_name="IDL_UB2$", read_iops__isnull=False).exists()
