"""Reads for a partitioned table's segment page: its partitions' heat by age (apps.tiering.lifecycle).

Apart from apps.dashboard.selectors, which is at the 500-line mark.
"""

from __future__ import annotations

from dataclasses import dataclass

from apps.snapshots.models import Segment
from apps.tiering.models import Recommendation


@dataclass(frozen=True)
class PartitionHeat:
    """One partition of a table or index in one refresh: its position (oldest first) and intensity (None:
    not measured), the tier it is recommended on and whether it is the page's segment."""

    partition: str
    position: int
    intensity: float | None
    measured: bool
    recommended_tier: str | None
    action: str
    is_this: bool


def partition_heat(*, segment: Segment, run_id: int) -> list[PartitionHeat]:
    """The partitions of ``segment``'s table or index with a known position in run ``run_id``, oldest first;
    [] for a segment that is no such partition. One query."""
    if segment.partition_position is None:
        return []
    rows = (Recommendation.objects.filter(
        run_id=run_id, segment__target_id=segment.target_id, segment__owner=segment.owner,
        segment__object_name=segment.object_name, segment__object_type=segment.object_type,
        segment__partition_position__isnull=False)
        .order_by("segment__partition_position")
        .values_list("segment_id", "segment__subobject_name", "segment__partition_position", "intensity",
                     "measured", "recommended_tier__name", "action"))
    return [PartitionHeat(name, position, intensity, measured, tier, action, segment_id == segment.id)
            for segment_id, name, position, intensity, measured, tier, action in rows]
