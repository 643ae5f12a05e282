"""Bulk-built dashboard data: a target with many segments, snapshots, recommendations and residency."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from django.utils import timezone

from apps.snapshots.models import CollectionRun, Residency, Segment, SegmentStat, Snapshot, SysStat
from apps.targets.models import Target
from apps.tiering.models import Recommendation, RecommendationRun, Tier

SNAPSHOTS = 6


def build_target(*, name: str, segments: int) -> Target:
    """A demo-mode target on the seed-2009 tiers (install them first) with ``segments`` segments."""
    now = timezone.now()
    target = Target.objects.create(name=name, mode=Target.Mode.DEMO, tier_set_id="seed-2009",
                                   capabilities={"release": "19.0.0.0.0", "block_size_bytes": 8192})
    tiers = list(Tier.objects.filter(tier_set="seed-2009").order_by("name"))
    segs = Segment.objects.bulk_create([
        Segment(target=target, owner=f"OWN{i % 3}", object_name=f"OBJ{i}", object_type="TABLE" if i % 2 else "INDEX",
                tablespace_name=f"TS{i % 4}", size_bytes=None if i == 0 else (i + 1) * 1024**3 // 8,
                first_seen_at=now, last_seen_at=now)
        for i in range(segments)
    ])
    snaps = Snapshot.objects.bulk_create([
        Snapshot(target=target, kind="demo", dbid=1, instance_number=1, snap_id=k,
                 begin_at=now - dt.timedelta(hours=SNAPSHOTS - k + 1), end_at=now - dt.timedelta(hours=SNAPSHOTS - k),
                 startup_at=now - dt.timedelta(days=9), top_n_only=False)
        for k in range(SNAPSHOTS)
    ])
    SegmentStat.objects.bulk_create([
        SegmentStat(snapshot=s, segment=g, end_at=s.end_at, interval_s=3600.0, physical_read_requests=100 + i,
                    physical_write_requests=10 + i, space_allocated_bytes=g.size_bytes)
        for s in snaps for i, g in enumerate(segs)
    ])
    SysStat.objects.bulk_create([
        SysStat(snapshot=s, name=stat, value=value)
        for s in snaps for stat, value in (("physical read IO requests", 1000), ("physical read flash cache hits", 250),
                                           ("flash cache inserts", 40))
    ])
    Residency.objects.bulk_create([
        Residency(target=target, segment=g, collected_at=now, instance_number=1, flash_blocks=10 * i, cache_blocks=i)
        for i, g in enumerate(segs)
    ])
    run = RecommendationRun.objects.create(target=target, computed_at=now, state=RecommendationRun.State.CURRENT,
                                           window_days=7, statistic="p95", recommendations=len(segs))
    Recommendation.objects.bulk_create([
        Recommendation(
            run=run, segment=g, iops=float(i + 1), size_gb=None if g.size_bytes is None else g.size_bytes / 1024**3,
            intensity=None if g.size_bytes is None else (i + 1) / (g.size_bytes / 1024**3),
            current_tier=tiers[i % len(tiers)], cost_tier=tiers[(i + 1) % len(tiers)],
            recommended_tier=tiers[(i + 1) % len(tiers)],
            cost_now_usd=Decimal("2.00"), cost_after_usd=Decimal("1.50"), savings_usd=Decimal("0.50"),
            action="move" if i % 2 else "keep",
        )
        for i, g in enumerate(segs)
    ])
    CollectionRun.objects.bulk_create([
        CollectionRun(target=target, status="succeeded", trigger="schedule", queued_at=now - dt.timedelta(hours=k),
                      started_at=now - dt.timedelta(hours=k), finished_at=now - dt.timedelta(hours=k, seconds=-5))
        for k in range(5)
    ])
    return target
