"""Pages show a figure a report did not measure as "not measured", with its bound, never as 0 (issue 15)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils.html import escape

from apps.snapshots.models import Segment
from apps.targets.models import Target
from tests.base import NOW
from tests.tiering.stored_targets import (
    HOT,
    hourly_snapshots,
    rac_interval_store,
    report_target_store,
    seed_target_create,
)


def _unsized_target() -> Target:
    """A report target whose one segment has no size (no sizes listing was given)."""
    from apps.targets.models import TablespaceTier
    from apps.tiering.models import Tier

    target = report_target_store(unlisted_bound=1800)
    Segment.objects.filter(target=target).update(size_bytes=None)
    TablespaceTier.objects.filter(target=target).update(tier=Tier.objects.get(tier_set="seed-2009", name="flash"))
    from apps.tiering.recommendations.services import recommendation_refresh

    recommendation_refresh(target_id=target.id, now=NOW)
    return target


@pytest.mark.django_db
class UnmeasuredPageTests:
    def test_the_recommendations_table_says_not_measured_with_the_bound(self, admin_client, seed_tiers):
        target = report_target_store(unlisted_bound=1800)

        body = admin_client.get(f"/targets/{target.name}/recommendations/?sort=name").content.decode()
        assert "not measured (≤ 0.5" in body  # UNLISTED: the report's bound for unlisted segments
        assert body.count("not measured (≤ ") == 4  # IOPS and intensity, and LOGICAL_ONLY's; UNBOUNDED has none
        assert escape("≥ $") in body or "≥ $" in body  # its cost counts the GB only: a lower bound

    def test_the_segment_page_says_not_measured(self, admin_client, seed_tiers):
        target = report_target_store(unlisted_bound=None)
        segment = Segment.objects.get(target=target, object_name="UNBOUNDED")

        body = admin_client.get(f"/targets/{target.name}/segments/{segment.id}/").content.decode()
        assert "not measured" in body
        assert "top-N capture" in body

    def test_the_target_page_says_its_cost_is_a_lower_bound_and_leaves_unmeasured_out_of_the_skew(
            self, admin_client, seed_tiers):
        target = report_target_store(unlisted_bound=1800)

        body = admin_client.get(f"/targets/{target.name}/").content.decode()
        assert "with IO not measured, priced by GB" in body
        assert "left out: IO not measured" in body

    def test_an_unsized_target_shows_its_storage_cost_as_unknown_not_zero(self, admin_client, seed_tiers):
        target = _unsized_target()

        body = admin_client.get(f"/targets/{target.name}/").content.decode()
        kpi = body.split('id="kpi-now">', 1)[1].split("</div>", 1)[0]
        assert kpi == "unknown"
        assert "not priced (size unknown" in body


@pytest.mark.django_db
def test_the_target_page_names_a_rac_interval_missing_instances(admin_client, seed_tiers):
    target = seed_target_create("rac", Target.Mode.REPORT, {"FLASHY": "flash"})
    rac_interval_store(target, 1)

    body = admin_client.get(f"/targets/{target.name}/").content.decode()
    assert "RAC database of 2 instances: snapshot 100" in body
    assert "holds instance 1 only" in body

    rac_interval_store(target, 2)
    assert "RAC database of 2" not in admin_client.get(f"/targets/{target.name}/").content.decode()


@pytest.mark.django_db
def test_the_segment_page_says_whether_its_read_latency_was_measured_or_nominal(admin_client, seed_tiers):
    target = report_target_store(unlisted_bound=1800)  # the report has no Tablespace IO section
    segment = Segment.objects.get(target=target, object_name="LISTED")

    body = admin_client.get(f"/targets/{target.name}/segments/{segment.id}/").content.decode()
    assert "the tier's nominal latency (FLASHY not measured)" in body


@pytest.mark.django_db
def test_the_segment_page_names_the_measured_latency(admin_client, seed_tiers):
    from apps.snapshots.services import collection_store
    from apps.targets.base import CollectState
    from apps.targets.rows import Collection, DatabaseInfo, SegmentInfo
    from apps.tiering.recommendations.services import recommendation_refresh

    target = seed_target_create("t1", Target.Mode.DEMO, {"SLOW": "hi-cap disk"})
    collection = Collection(
        database=DatabaseInfo(dbid=7, db_name="T1", release="19.0.0.0.0", is_rac=False, instances=(1,)),
        snapshots=tuple(hourly_snapshots(24, lambda h: 3600, lambda h: 0, HOT, "SLOW", 12.5)),
        segments=(SegmentInfo(key=HOT, tablespace_name="SLOW", bytes=2 * 1024**3, blocks=2 * 1024**3 // 8192),))
    collection_store(target=target, collection=collection, kind="demo",
                     state=CollectState(now=NOW, history_start_at=NOW - dt.timedelta(days=8)))
    recommendation_refresh(target_id=target.id, now=NOW)
    segment = Segment.objects.get(target=target, object_name=HOT.object_name)

    body = admin_client.get(f"/targets/{target.name}/segments/{segment.id}/").content.decode()
    assert "12.50 ms, measured on SLOW" in body


@pytest.mark.django_db
def test_the_fleet_page_marks_a_target_costed_on_unmeasured_figures_and_its_total_as_lower_bounds(
        admin_client, seed_tiers):
    report_target_store(unlisted_bound=1800)

    body = admin_client.get("/").content.decode()
    row = body.split('data-col="cost_now"', 1)[1].split("</td>", 1)[0]
    assert "≥ $" in row and "with IO not measured" in row
    total = body.split('data-col="total_now">', 1)[1].split("</td>", 1)[0]
    assert total.startswith("≥ $")
