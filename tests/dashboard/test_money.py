"""Money in one unit on the pages (issue 15, item 7): every figure per month with its unit; a purchase set's
figures amortised over its months; fleet totals per month, never adding a purchase to a monthly bill."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

from apps.dashboard.fleet.selectors import fleet_overview
from apps.snapshots.models import Segment
from apps.targets.models import Target
from apps.tiering.models import Recommendation, RecommendationRun, Tier

NOW = dt.datetime(2026, 11, 20, 12, 0, tzinfo=dt.timezone.utc)


def _target_costing(name: str, tier_set: str, tier_name: str, now_usd: str, after_usd: str) -> Target:
    """A target whose one recommendation costs ``now_usd`` now and ``after_usd`` after, in its set's unit."""
    target = Target.objects.create(name=name, mode=Target.Mode.REPORT, tier_set_id=tier_set)
    segment = Segment.objects.create(target=target, owner="APP", object_name="SALES", object_type="TABLE",
                                     tablespace_name="USERS", size_bytes=10 * 1024**3, first_seen_at=NOW,
                                     last_seen_at=NOW)
    run = RecommendationRun.objects.create(target=target, computed_at=NOW, state=RecommendationRun.State.CURRENT,
                                           window_days=7, statistic="p95", recommendations=1)
    tier = Tier.objects.get(name=tier_name)
    Recommendation.objects.create(run=run, segment=segment, iops=1.0, size_gb=10.0, intensity=0.1,
                                  current_tier=tier, cost_tier=tier, recommended_tier=tier,
                                  cost_now_usd=Decimal(now_usd), cost_after_usd=Decimal(after_usd),
                                  savings_usd=Decimal(now_usd) - Decimal(after_usd), action="keep")
    return target


@pytest.fixture
def fleet(db, seed_tiers):
    _target_costing("onprem", "seed-2009", "fast disk", "18000.00", "12000.00")  # a purchase: $300 / $200 a month
    _target_costing("cloud", "aws-ebs", "EBS gp3", "12.00", "6.75")  # monthly already


@pytest.mark.django_db
class FleetMoneyTests:
    def test_it_gives_every_target_s_costs_per_month(self, fleet):
        rows = {row.target.name: row for row in fleet_overview()}

        assert (rows["onprem"].cost_now_usd_per_month, rows["onprem"].savings_usd_per_month) == (300, 100)
        assert (rows["cloud"].cost_now_usd_per_month, rows["cloud"].cost_after_usd_per_month) == (
            Decimal("12.00"), Decimal("6.75"))

    def test_it_shows_the_unit_and_a_per_month_fleet_total(self, fleet, viewer_client):
        body = viewer_client.get("/").content.decode()

        assert "$300.00/month" in body and "$12.00/month" in body
        assert "$18,000" not in body  # never a purchase beside a monthly bill
        assert 'data-col="total_now">$312.00/month' in body
        assert "amortised over 60 months" in body


@pytest.mark.django_db
class TargetMoneyTests:
    def test_it_shows_a_purchase_set_s_costs_per_month_with_the_purchase_beside(self, fleet, viewer_client):
        body = viewer_client.get("/targets/onprem/").content.decode()

        assert "$300.00/month" in body and "$18,000 purchase" in body
        assert "amortised over 60 months" in body

    def test_it_gives_the_cost_chart_its_unit(self, fleet, viewer_client):
        response = viewer_client.get("/targets/onprem/")

        payload = response.context["cost_payload"]
        assert payload["unit"] == "USD/month"
        assert payload["totals"] == [300.0, 200.0]

    def test_it_shows_per_month_figures_on_the_recommendations_page(self, fleet, viewer_client):
        body = viewer_client.get("/targets/onprem/recommendations/").content.decode()

        assert "$300.00/month" in body and "$100.00/month" in body


def _recommendation(target: Target, run: RecommendationRun, name: str, tablespace: str, current: Tier,
                    recommended: Tier, *, gb: float, iops: float, now_usd: str, after_usd: str) -> None:
    segment = Segment.objects.create(target=target, owner="APP", object_name=name, object_type="TABLE",
                                     tablespace_name=tablespace, size_bytes=int(gb * 1024**3), first_seen_at=NOW,
                                     last_seen_at=NOW)
    Recommendation.objects.create(run=run, segment=segment, iops=iops, size_gb=gb, intensity=iops / gb,
                                  current_tier=current, cost_tier=recommended, recommended_tier=recommended,
                                  cost_now_usd=Decimal(now_usd), cost_after_usd=Decimal(after_usd),
                                  savings_usd=Decimal(now_usd) - Decimal(after_usd),
                                  action="keep" if current == recommended else "move")


@pytest.mark.django_db
class PoolChargeTests:
    """Cloud volumes pooled (issue 15, item 8): segments pay their marginal cost; a volume's minimum size and free
    IOPS baseline are charged once per tablespace on the target page."""

    def test_it_charges_st1_s_minimum_volume_once_per_tablespace(self, viewer_client, seed_tiers):
        target = Target.objects.create(name="cloud", mode=Target.Mode.REPORT, tier_set_id="aws-ebs")
        run = RecommendationRun.objects.create(target=target, computed_at=NOW, state=RecommendationRun.State.CURRENT,
                                               window_days=7, statistic="p95", recommendations=3)
        st1 = Tier.objects.get(name="EBS st1")
        # Two 10 GB partitions in COLD pay 2 x $0.45 marginally; the tablespace's volume is billed 125 GB: $5.625.
        for name in ("P1", "P2"):
            _recommendation(target, run, name, "COLD", st1, st1, gb=10.0, iops=0.002, now_usd="0.45", after_usd="0.45")
        # A third in ARCHIVE, a tablespace of its own: a volume of its own.
        _recommendation(target, run, "P3", "ARCHIVE", st1, st1, gb=10.0, iops=0.002, now_usd="0.45", after_usd="0.45")

        response = viewer_client.get("/targets/cloud/")

        (cost,) = response.context["costs"]
        assert (cost.tier, cost.pool_now_usd, cost.now_usd) == ("EBS st1", Decimal("4.73") + Decimal("5.18"),
                                                               Decimal("1.35") + Decimal("4.73") + Decimal("5.18"))
        assert response.context["cost_payload"]["totals"] == [11.26, 11.26]
        assert "once per tablespace" in response.content.decode()

    def test_it_pools_segments_moved_to_a_tier_together(self, viewer_client, seed_tiers):
        target = Target.objects.create(name="cloud", mode=Target.Mode.REPORT, tier_set_id="aws-ebs")
        run = RecommendationRun.objects.create(target=target, computed_at=NOW, state=RecommendationRun.State.CURRENT,
                                               window_days=7, statistic="p95", recommendations=2)
        st1, gp3 = Tier.objects.get(name="EBS st1"), Tier.objects.get(name="EBS gp3")
        # Moved from two gp3 tablespaces to st1: one new st1 volume (125 GB, $5.625) for both, not one each.
        _recommendation(target, run, "P1", "A", gp3, st1, gb=100.0, iops=0.0, now_usd="8.00", after_usd="4.50")
        _recommendation(target, run, "P2", "B", gp3, st1, gb=20.0, iops=0.0, now_usd="1.60", after_usd="0.90")

        costs = {c.tier: c for c in viewer_client.get("/targets/cloud/").context["costs"]}

        assert costs["EBS st1"].after_usd == Decimal("5.63")  # 5.40 marginal + 0.23 up to the 125 GB minimum
        assert costs["EBS gp3"].now_usd == Decimal("9.60")  # gp3's 1 GB minimum never binds; no IOPS to credit
