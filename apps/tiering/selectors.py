"""Reads for recommendations (per-segment window figures: apps.snapshots.windows)."""

from __future__ import annotations

import datetime as dt

from apps.snapshots.models import TablespaceIO
from apps.snapshots.selectors import WindowCoverage, window_coverage
from apps.tiering.models import Recommendation, RecommendationRun, Refresh


def tablespace_read_latency_ms(*, target_id: int, since: dt.datetime, until: dt.datetime) -> dict[str, float]:
    """Average read latency per tablespace over the window, where the source collected it."""
    from django.db.models import Sum

    rows = (
        TablespaceIO.objects.filter(
            snapshot__target_id=target_id, snapshot__end_at__gt=since, snapshot__end_at__lte=until,
            read_time_ms__isnull=False,
        )
        .values("tablespace_name")
        .annotate(reads=Sum("read_requests"), time_ms=Sum("read_time_ms"))
        .order_by()
    )
    return {r["tablespace_name"]: r["time_ms"] / r["reads"] for r in rows if r["reads"]}


def recommendation_list(*, target_id: int):
    """Current recommendations of a target with their segment and tiers (one query)."""
    return (
        Recommendation.objects.current(target_id=target_id)
        .select_related("run", "segment", "current_tier", "cost_tier", "recommended_tier")
        .order_by("-savings_usd", "segment__owner", "segment__object_name", "segment__subobject_name")
    )


def recommendation_run_current(*, target_id: int) -> RecommendationRun | None:
    return RecommendationRun.objects.filter(target_id=target_id, state=RecommendationRun.State.CURRENT).first()


def recommendation_window(*, run: RecommendationRun | None) -> WindowCoverage | None:
    """What the figures of a recommendation run cover (labels name it); None before the first computation."""
    if run is None or run.window_first_day is None or run.window_last_day is None:
        return None
    return window_coverage(target_id=run.target_id, first_day=run.window_first_day, last_day=run.window_last_day,
                           statistic=run.statistic)


def refresh_latest(*, target_id: int) -> Refresh | None:
    """The target's latest refresh, whatever caused it (a run, the Recompute button, the command)."""
    return Refresh.objects.filter(target_id=target_id).order_by("-queued_at", "-id").first()


#: A current recommendation's decision: (current tier, recommended tier, action).
Decision = tuple[int | None, int | None, str]


def recommendation_decisions(*, target_id: int) -> dict[int, Decision]:
    """Each segment's current decision, to say what a recompute changed (one query)."""
    rows = Recommendation.objects.current(target_id=target_id).values_list(
        "segment_id", "current_tier_id", "recommended_tier_id", "action")
    return {segment_id: (current, recommended, action) for segment_id, current, recommended, action in rows}


def recommendation_changes(before: dict[int, Decision], after: dict[int, Decision]) -> str:
    """What a recompute changed, in words.

    >>> recommendation_changes({1: (1, 2, "move"), 2: (1, 1, "keep")}, {1: (3, 2, "move"), 2: (1, 1, "keep"), 3: (None, None, "keep")})
    '1 changed (current tier, recommended tier or action), 1 new'
    >>> recommendation_changes({}, {})
    'nothing changed'
    """
    changed = sum(1 for segment_id, decision in after.items() if segment_id in before and before[segment_id] != decision)
    new, gone = len(after.keys() - before.keys()), len(before.keys() - after.keys())
    parts = [f"{changed} changed (current tier, recommended tier or action)"] if changed else []
    parts += [f"{new} new"] if new else []
    parts += [f"{gone} gone"] if gone else []
    return ", ".join(parts) or "nothing changed"
