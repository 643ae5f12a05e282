"""A target with ``rows`` stored recommendations of every kind, for the export tests (streaming, stored lines).
Needs the seed tiers installed (the ``seed_tiers`` fixture)."""

from __future__ import annotations

from decimal import Decimal

from django.utils import timezone

from apps.snapshots.models import Segment
from apps.targets.models import TablespaceTier, Target
from apps.tiering.models import Recommendation, RecommendationRun, Tier

KINDS = (("TABLE", ""), ("INDEX", ""), ("TABLE PARTITION", "P{:05d}"), ("INDEX PARTITION", "P{:05d}"),
         ("LOBSEGMENT", ""))


def export_target(name: str, rows: int) -> Target:
    """``rows`` recommendations of every kind (tables, indexes, partitions of tables of 8, LOBs), moves and
    keeps, their tablespaces mapped so moves carry DDL."""
    now = timezone.now()
    target = Target.objects.create(name=name, mode=Target.Mode.DEMO, enabled=False, tier_set_id="seed-2009",
                                   capabilities={"release": "19.0.0.0.0", "block_size_bytes": 8192})
    tiers = {t.name: t for t in Tier.objects.filter(tier_set="seed-2009")}
    for tablespace, tier in (("DATA01", "fast disk"), ("HIST01", "hi-cap disk"), ("FLASH01", "flash")):
        TablespaceTier.objects.create(target=target, tablespace_name=tablespace, tier=tiers[tier])
    segments = []
    for i in range(rows):
        kind, sub = KINDS[i % len(KINDS)]
        table, partitioned = f"T{i:05d}", f"PT{i // 20:05d}"  # a partitioned table's partitions share its name
        segments.append(Segment(
            target=target, owner=f"APP{i % 3}", object_type=kind, subobject_name=sub.format(i),
            object_name={"INDEX": f"{table}_IX", "TABLE PARTITION": partitioned, "INDEX PARTITION": f"{partitioned}_IX",
                         "LOBSEGMENT": f"SYS_LOB{i:010d}C00002$$"}.get(kind, table),
            tablespace_name=("DATA01", "HIST01")[i % 2], partitioned_parent=table if kind == "LOBSEGMENT" else "",
            lob_column="BODY" if kind == "LOBSEGMENT" else "", size_bytes=(i % 40 + 1) * 2**27,
            first_seen_at=now, last_seen_at=now))
    segments = Segment.objects.bulk_create(segments)
    run = RecommendationRun.objects.create(target=target, computed_at=now, state=RecommendationRun.State.CURRENT,
                                           window_days=7, statistic="p95", recommendations=rows)
    Recommendation.objects.bulk_create([
        Recommendation(
            run=run, segment=seg, iops=1.5 + i, read_iops=1.0 + i, write_iops=0.5, size_bytes=seg.size_bytes,
            size_gb=seg.size_bytes / 2**30, intensity=(1.5 + i) / (seg.size_bytes / 2**30), read_requests=100 + i,
            write_requests=10, current_tier=tiers["fast disk"], cost_tier=tiers["hi-cap disk"],
            recommended_tier=tiers["hi-cap disk"] if i % 3 else tiers["fast disk"],
            cost_now_usd=Decimal("9.00"), cost_after_usd=Decimal("4.00"), savings_usd=Decimal(i % 7),
            move_cost_usd=Decimal("1.00"), payback_days=6.0, action="move" if i % 3 else "keep")
        for i, seg in enumerate(segments)
    ])
    return target
