"""A refresh on a cloud tier set prices segments inside pooled volumes (issue 15, item 8)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from apps.snapshots.models import Segment
from apps.targets.models import TablespaceTier, Target
from apps.tiering.models import Recommendation, Tier
from apps.tiering.recommendations.services import recommendation_refresh
from tests.base import NOW
from tests.tiering.stored_targets import cold_partitions_store


@pytest.fixture
def cloud_target(db, seed_tiers) -> Target:
    from apps.tiering.models import TierSet

    # Each partition alone saves $0.35 a month, under the set's $1 minimum (apps.tiering.moves.payback): none, here,
    # so that the pooling is what decides.
    TierSet.objects.filter(name="aws-ebs").update(min_saving_usd_per_month=0)
    target = Target.objects.create(name="c1", mode=Target.Mode.DEMO, tier_set_id="aws-ebs")
    TablespaceTier.objects.create(target=target, tablespace_name="COLD", tier=Tier.objects.get(name="EBS gp3"))
    cold_partitions_store(target)
    return target


@pytest.mark.django_db
class PooledCloudVolumeTests:
    def test_it_moves_cold_partitions_from_gp3_to_pooled_st1(self, cloud_target):
        recommendation_refresh(target_id=cloud_target.id, now=NOW)

        recs = list(Recommendation.objects.current(target_id=cloud_target.id).select_related("recommended_tier"))
        assert len(recs) == 15 == Segment.objects.filter(target=cloud_target).count()
        # $12.00 a month on gp3 now, $6.75 pooled on st1 (alone, each would pay st1's 125 GB minimum).
        assert {rec.recommended_tier.name for rec in recs} == {"EBS st1"}
        assert sum(rec.cost_now_usd for rec in recs) == Decimal("12.00")
        assert sum(rec.cost_after_usd for rec in recs) == Decimal("6.75")
        assert sum(rec.savings_usd for rec in recs) == Decimal("5.25")
