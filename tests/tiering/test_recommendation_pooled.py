"""A refresh on a cloud tier set prices segments inside pooled volumes (issue 15, item 8)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

from apps.snapshots.models import Segment
from apps.snapshots.services import collection_store
from apps.targets.base import CollectState
from apps.targets.models import TablespaceTier, Target
from apps.targets.rows import Collection, DatabaseInfo, SegmentInfo, SegmentKey, SegmentStat, Snapshot
from apps.tiering.models import Recommendation, Tier
from apps.tiering.services import recommendation_refresh

NOW = dt.datetime(2026, 11, 20, 12, 0, tzinfo=dt.timezone.utc)
GB = 1024**3
PARTITIONS = tuple(SegmentKey("APP", "SALES", f"SALES_2024_{month:02d}", "TABLE PARTITION") for month in range(1, 16))


def _cold_partitions(target: Target) -> None:
    """Fifteen 10 GB partitions in tablespace COLD, read 7 times an hour each (0.002 IOPS)."""
    snapshots = []
    for hour in range(48):
        end = NOW - dt.timedelta(hours=47 - hour)
        stats = tuple(SegmentStat(key=key, tablespace_name="COLD", obj_number=i + 1, dataobj_number=i + 1,
                                  physical_read_requests=7, physical_write_requests=0, physical_reads_blocks=7)
                      for i, key in enumerate(PARTITIONS))
        snapshots.append(Snapshot(dbid=7, instance_number=1, snap_id=2000 + hour, begin_at=end - dt.timedelta(hours=1),
                                  end_at=end, startup_at=NOW - dt.timedelta(days=30), segment_stats=stats,
                                  top_n_only=False))
    collection = Collection(
        database=DatabaseInfo(dbid=7, db_name="C1", release="19.0.0.0.0", is_rac=False, instances=(1,)),
        snapshots=tuple(snapshots),
        segments=tuple(SegmentInfo(key=key, tablespace_name="COLD", bytes=10 * GB, blocks=10 * GB // 8192)
                       for key in PARTITIONS),
    )
    state = CollectState(now=NOW, history_start_at=NOW - dt.timedelta(days=8))
    collection_store(target=target, collection=collection, kind="demo", state=state)


@pytest.fixture
def cloud_target(db, seed_tiers) -> Target:
    from apps.tiering.models import TierSet

    # Each partition alone saves $0.35 a month, under the set's $1 minimum (apps.tiering.payback): none, here,
    # so that the pooling is what decides.
    TierSet.objects.filter(name="aws-ebs").update(min_saving_usd_per_month=0)
    target = Target.objects.create(name="c1", mode=Target.Mode.DEMO, tier_set_id="aws-ebs")
    TablespaceTier.objects.create(target=target, tablespace_name="COLD", tier=Tier.objects.get(name="EBS gp3"))
    _cold_partitions(target)
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
