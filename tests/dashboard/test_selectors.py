"""Dashboard selectors against the real test database."""

from __future__ import annotations

from decimal import Decimal

import pytest

from apps.dashboard import selectors
from apps.dashboard.fleet import selectors as fleet
from apps.dashboard.recommendations import selectors as reco_selectors
from apps.dashboard.segment import selectors as segment_selectors
from apps.dashboard.tiers import selectors as tier_selectors
from tests.dashboard.factories import SNAPSHOTS, build_target

pytestmark = pytest.mark.django_db


class FleetOverviewTests:
    def test_it_sums_costs_and_computes_the_flash_hit_ratio(self, seed_tiers):
        target = build_target(name="f1", segments=40)
        (row,) = fleet.fleet_overview()
        assert row.target == target and row.segments == 40
        assert (row.cost_now_usd, row.cost_after_usd, row.savings_usd) == (Decimal("80.00"), Decimal("60.00"), Decimal("20.00"))
        assert row.flash_hit_ratio == pytest.approx(0.25)
        assert row.last_run.status == "succeeded"

    def test_it_shows_no_ratio_or_costs_for_an_empty_target(self, db):
        from apps.targets.models import Target

        Target.objects.create(name="empty", mode=Target.Mode.REPORT)
        (row,) = fleet.fleet_overview()
        assert (row.last_run, row.cost_now_usd, row.flash_hit_ratio) == (None, None, None)


class TargetSelectorTests:
    def test_it_groups_tier_costs_by_current_and_recommended_tier(self, seed_tiers):
        target = build_target(name="c1", segments=30)
        costs = {c.tier: (c.now_usd, c.after_usd) for c in reco_selectors.tier_costs(target_id=target.id)}
        assert sum(now for now, _ in costs.values()) == Decimal("60.00")
        assert sum(after for _, after in costs.values()) == Decimal("45.00")

    def test_it_returns_the_latest_residency_biggest_first(self, seed_tiers):
        target = build_target(name="r1", segments=20)
        rows = reco_selectors.latest_residency(target_id=target.id, limit=3)
        assert [r.flash_blocks for r in rows] == [190, 180, 170]

    def test_it_sums_flash_statistics_per_snapshot(self, seed_tiers):
        target = build_target(name="s1", segments=5)
        samples = reco_selectors.flash_samples(target_id=target.id, since=selectors.window_since())
        assert len(samples) == SNAPSHOTS
        assert {(s.hits, s.read_requests, s.inserts, s.interval_s) for s in samples} == {(250, 1000, 40, 3600.0)}

    def test_it_keeps_a_flash_statistic_missing_at_one_snapshot_unknown_not_zero(self, seed_tiers):
        from apps.snapshots.models import SysStat

        target = build_target(name="s2", segments=5)
        first = SysStat.objects.filter(snapshot__target=target).order_by("snapshot__end_at").first().snapshot
        SysStat.objects.filter(snapshot=first, name=selectors.STAT_FLASH_INSERTS).delete()
        samples = reco_selectors.flash_samples(target_id=target.id, since=selectors.window_since())
        assert (samples[0].end_at, samples[0].hits, samples[0].inserts) == (first.end_at, 250, None)
        assert samples[1].inserts == 40

    def test_it_returns_a_segment_series_in_time_order(self, seed_tiers):
        target = build_target(name="g1", segments=3)
        seg = target.segments.order_by("id").last()
        series = segment_selectors.segment_series(segment_id=seg.id)
        assert len(series) == SNAPSHOTS and series == sorted(series, key=lambda s: s.end_at)
        assert series[0].read_requests == 102 and series[0].space_allocated_bytes == seg.size_bytes

    def test_a_segment_series_keeps_unmeasured_requests_unknown_not_zero(self, seed_tiers):
        from apps.snapshots.models import SegmentStat

        target = build_target(name="g2", segments=3)
        seg = target.segments.order_by("id").last()
        first = SegmentStat.objects.filter(segment=seg).order_by("end_at").values_list("end_at", flat=True)[0]
        SegmentStat.objects.filter(segment=seg, end_at=first).update(physical_read_requests=None, physical_write_requests=None)
        series = segment_selectors.segment_series(segment_id=seg.id)
        assert (series[0].read_requests, series[0].write_requests) == (None, None)
        assert series[1].read_requests == 102


class TierCatalogTests:
    def test_it_groups_tiers_with_intensity_and_break_evens(self, seed_tiers):
        sets = {s.name: s for s in tier_selectors.tier_catalog()}
        seed = sets["seed-2009"]
        assert [v.tier.name for v in seed.tiers] == ["hi-cap disk", "fast disk", "flash"]
        assert [round(v.intensity, 3) for v in seed.tiers] == [0.1, 1.0, 375.0]
        assert [round(b.intensity, 3) for b in seed.break_evens] == [0.8, 15.0]


def test_fleet_totals_add_every_target_per_month():
    import doctest

    assert doctest.testmod(fleet).failed == 0
