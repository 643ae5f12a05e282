"""The per-instance AWR reports of one RAC snapshot pair are summed, whatever order they arrive in (issue 15, 2)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
import time_machine

from apps.snapshots.imports import report_import
from apps.targets.awr_report import parse_report
from apps.targets.awr_report.source import report_to_collection
from apps.targets.models import Target
from apps.tiering.models import Recommendation

SAMPLES = Path(__file__).resolve().parents[2] / ".." / "shared" / "awr-samples"
INSTANCE_1 = "1newstar__awr2csv__sample__awr_11204_1.txt"
INSTANCE_2 = "1newstar__awr2csv__sample__awr_11204_2.txt"
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
