"""Reads several dashboard page families share: a segment's label, the recommendation window, a run's rows and
the scatter's points, the totals' sums, the block size, the flash-cache statistic names."""

from __future__ import annotations

import datetime as dt

import numpy as np
from django.db import connection
from django.db.models import Count, FloatField, Q, Sum, Value
from django.db.models.functions import Coalesce
from django.utils import timezone

from apps.core.config import get_config
from apps.core.pgcopy import fetch_arrays
from apps.dashboard.rows import SegmentPoints
from apps.snapshots.models import Segment
from apps.targets.models import Target
from apps.targets.rows import segment_name
from apps.tiering.models import Recommendation, Tier

STAT_FLASH_HITS = "physical read flash cache hits"
STAT_READ_REQUESTS = "physical read IO requests"
STAT_FLASH_INSERTS = "flash cache inserts"
FLASH_STATS = (STAT_FLASH_HITS, STAT_READ_REQUESTS, STAT_FLASH_INSERTS)
DEFAULT_BLOCK_SIZE_BYTES = 8192


def segment_label(owner: str, object_name: str, subobject_name: str, parent_partition: str = "",
                  container: str = "") -> str:
    """[PDB:]owner.name[.partition][.subobject]: a subpartition is named with its partition, a CDB's segment
    with its PDB (apps.targets.rows.segment_name)."""
    return segment_name(owner, object_name, subobject_name, container, parent_partition)


def window_since(*, now: dt.datetime | None = None) -> dt.datetime:
    """Start of the recommendation window (the same days the recommendations use)."""
    return (now or timezone.now()) - dt.timedelta(days=get_config()["WINDOW_DAYS"])


def block_size_bytes(target: Target) -> int:
    """The database's block size (its capabilities), else Oracle's default."""
    return int(target.capabilities.get("block_size_bytes") or DEFAULT_BLOCK_SIZE_BYTES)


def run_rows(*, target_id: int, run_id: int | None):
    """The rows of one run (``run_id``), else of the target's current run."""
    if run_id is not None:
        return Recommendation.objects.filter(run_id=run_id)
    return Recommendation.objects.current(target_id=target_id)


def segment_points(*, target_id: int, run_id: int | None = None) -> SegmentPoints:
    """Every segment's current figures, for the scatter and the skew curve: read into arrays (one query and
    the tier names), as 100k model rows or tuples would take a second."""
    nan = Value(float("nan"), output_field=FloatField())
    rows = run_rows(target_id=target_id, run_id=run_id).counted().values_list(
        "segment_id", Coalesce("size_gb", nan), Coalesce("iops", nan), Coalesce("intensity", nan),
        Coalesce("recommended_tier_id", Value(-1)))
    sql, params = rows.query.sql_with_params()
    with connection.cursor() as cursor:
        data = fetch_arrays(cursor.cursor, sql, params, [("segment_id", "int8"), ("size_gb", "float8"),
                                                         ("iops", "float8"), ("intensity", "float8"),
                                                         ("tier_id", "int8")])
    tier_ids, codes = np.unique(data["tier_id"], return_inverse=True)
    names = dict(Tier.objects.filter(pk__in=[int(t) for t in tier_ids if t >= 0]).values_list("id", "name"))
    tiers = np.array([names.get(int(t), "") for t in tier_ids], dtype=object)
    return SegmentPoints(segment_id=data["segment_id"], size_gb=data["size_gb"], iops=data["iops"],
                         intensity=data["intensity"], tier=tiers[codes.reshape(-1)] if tier_ids.size else tiers)


def segment_labels(ids: list[int]) -> dict[int, str]:
    """owner.name[.subobject] of the given segments."""
    rows = Segment.objects.filter(pk__in=ids).values_list("id", "owner", "object_name", "subobject_name",
                                                          "parent_partition", "container")
    return {pk: segment_label(owner, name, sub, parent, container)
            for pk, owner, name, sub, parent, container in rows}


def totals_aggregates() -> dict:
    return dict(
        now=Sum("cost_now_usd"), after=Sum("cost_after_usd"), savings=Sum("savings_usd"), count=Count("segment_id"),
        moves=Count("segment_id", filter=Q(action__in=("move", "move_partitions"))),
        # Empty partitions moved ahead of their month (apps.tiering.recommendations.lifecycle): moved, but saving nothing yet.
        ahead=Count("segment_id", filter=Q(action="place_ahead")),
        unpriced=Count("segment_id", filter=Q(cost_now_usd__isnull=True)),
        unmeasured=Count("segment_id", filter=Q(measured=False)),
    )

