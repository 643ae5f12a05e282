"""Reads for recommendations (per-segment window figures: apps.snapshots.windows)."""

from __future__ import annotations

import datetime as dt

from apps.snapshots.models import TablespaceIO
from apps.tiering.models import Recommendation


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
