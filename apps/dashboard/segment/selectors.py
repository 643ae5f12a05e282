"""What the segment page reads of its segment: requests and space per snapshot, cache residency per collection,
its row in each of the latest recommendation runs."""

from __future__ import annotations

from django.db.models import Count, Max, Sum

from apps.dashboard.rows import ResidencySample, SegmentSample
from apps.snapshots.models import Residency, Segment, SegmentStat
from apps.tiering.models import Recommendation, RecommendationRun


def segment_series(*, segment_id: int) -> list[SegmentSample]:
    """One segment's requests and allocated space per snapshot end time (index segment_stat_series_idx).

    Requests not measured on an instance leave that snapshot's sum unknown (None), never 0.
    """
    rows = (
        SegmentStat.objects.filter(segment_id=segment_id)
        .values("end_at")
        .annotate(rr=Sum("physical_read_requests"), wr=Sum("physical_write_requests"), interval=Max("interval_s"),
                  space=Max("space_allocated_bytes"), rows=Count("*"),
                  rr_n=Count("physical_read_requests"), wr_n=Count("physical_write_requests"))
        .order_by("end_at")
    )
    return [
        SegmentSample(end_at=r["end_at"], interval_s=r["interval"],
                      read_requests=r["rr"] if r["rr_n"] == r["rows"] else None,
                      write_requests=r["wr"] if r["wr_n"] == r["rows"] else None,
                      space_allocated_bytes=r["space"])
        for r in rows
    ]


def segment_residency_series(*, segment_id: int) -> list[ResidencySample]:
    rows = (
        Residency.objects.filter(segment_id=segment_id).values("collected_at")
        .annotate(flash=Sum("flash_blocks"), cache=Sum("cache_blocks")).order_by("collected_at")
    )
    return [ResidencySample(collected_at=r["collected_at"], flash_blocks=r["flash"], cache_blocks=r["cache"]) for r in rows]


def segment_recommendation_history(*, segment: Segment, limit: int = 60) -> list[Recommendation]:
    """The segment's row in each of its target's latest ``limit`` runs (one probe of the key per run)."""
    runs = RecommendationRun.objects.filter(
        target_id=segment.target_id, state__in=(RecommendationRun.State.CURRENT, RecommendationRun.State.HISTORY),
    ).order_by("-computed_at").values("pk")[:limit]
    return list(
        Recommendation.objects.filter(run__in=runs, segment=segment)
        .select_related("run", "segment", "current_tier", "cost_tier", "recommended_tier")
        .order_by("-run__computed_at")
    )
