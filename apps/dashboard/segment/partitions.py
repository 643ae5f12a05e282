"""Reads for a partitioned table's segment page: its partitions' heat by age (apps.tiering.recommendations.lifecycle) and, for
a composite table's subpartition, its partition's subpartitions with their IO summed.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from django.db.models import F, Q

from apps.snapshots.models import Segment
from apps.tiering.models import Recommendation


@dataclass(frozen=True)
class PartitionHeat:
    """One partition of a table or index in one refresh: its place by bound (oldest first; PARTITION_POSITION
    where the source did not say how the table is partitioned) and intensity (None: not measured), the tier
    it is recommended on and whether it is the page's segment. A composite table's partition has no segment:
    its subpartitions' figures are summed into it (``subpartitions`` of them; its tier and action when they
    all share one, else "mixed")."""

    partition: str
    position: int
    intensity: float | None
    measured: bool
    recommended_tier: str | None
    action: str
    is_this: bool
    subpartitions: int = 0


def partition_heat(*, segment: Segment, run_id: int) -> list[PartitionHeat]:
    """The partitions of ``segment``'s table or index with a known place in run ``run_id``, oldest first;
    [] for a segment that is no such partition. A subpartition's table is read by partition (its
    subpartitions summed). One query."""
    if segment.parent_partition:
        return _composite_heat(segment=segment, run_id=run_id)
    if segment.partition_order is None and segment.partition_position is None:
        return []
    rows = (Recommendation.objects.filter(
        _same_object(segment), Q(segment__partition_order__isnull=False)
        | Q(segment__partitioning="", segment__partition_position__isnull=False), run_id=run_id)
        .order_by(F("segment__partition_order").asc(nulls_last=True), "segment__partition_position")
        .values_list("segment_id", "segment__subobject_name", "segment__partition_order",
                     "segment__partition_position", "intensity", "measured", "recommended_tier__name", "action"))
    return [PartitionHeat(name, at, intensity, measured, tier, action, segment_id == segment.id)
            for segment_id, name, order, position, intensity, measured, tier, action in rows
            if (at := order or position) is not None]  # every row has one (the filter)


def _same_object(segment: Segment) -> Q:
    return Q(segment__target_id=segment.target_id, segment__owner=segment.owner,
             segment__object_name=segment.object_name, segment__object_type=segment.object_type)


def _composite_heat(*, segment: Segment, run_id: int) -> list[PartitionHeat]:
    rows = (Recommendation.objects.filter(_same_object(segment), run_id=run_id, segment__partition_order__isnull=False)
            .exclude(segment__parent_partition="")
            .values_list("segment__parent_partition", "segment__partition_order", "iops", "size_gb", "measured",
                         "recommended_tier__name", "action"))
    parts: dict[str, list[tuple]] = defaultdict(list)
    for partition, order, iops, size_gb, measured, tier, action in rows:
        parts[partition].append((order, iops, size_gb, measured, tier, action))
    heat = []
    for partition, members in parts.items():
        measured = all(m[3] and m[1] is not None and m[2] is not None for m in members)
        gb = sum(m[2] or 0.0 for m in members)
        intensity = sum(m[1] for m in members) / gb if measured and gb > 0 else None
        tiers, actions = {m[4] for m in members}, {m[5] for m in members}
        heat.append(PartitionHeat(partition, members[0][0], intensity, measured,
                                  tiers.pop() if len(tiers) == 1 else "mixed",
                                  actions.pop() if len(actions) == 1 else "mixed",
                                  partition == segment.parent_partition, len(members)))
    return sorted(heat, key=lambda row: (row.position, row.partition))


@dataclass(frozen=True)
class SubpartitionRow:
    """One subpartition of a partition in one refresh (None: not measured)."""

    segment_id: int
    name: str
    tablespace_name: str
    read_requests: int
    write_requests: int
    iops: float | None
    size_bytes: int | None
    intensity: float | None
    measured: bool
    recommended_tier: str | None
    action: str
    is_this: bool


@dataclass(frozen=True)
class PartitionRollup:
    """A composite table's partition as the page of one of its subpartitions shows it: the subpartitions and
    their IO summed. ``iops``/``intensity`` are None when any subpartition was not measured (the requests are
    then what was measured: ``complete`` False); ``size_bytes`` None when any size is unknown."""

    partition: str
    partitioning: str
    bound: str
    rows: list[SubpartitionRow]
    read_requests: int
    write_requests: int
    iops: float | None
    size_bytes: int | None
    intensity: float | None
    complete: bool


def partition_rollup(*, segment: Segment, run_id: int) -> PartitionRollup | None:
    """The partition of subpartition ``segment`` with its subpartitions in run ``run_id``; None for a segment
    that is no subpartition of a known partition. One query."""
    if not segment.parent_partition:
        return None
    recs = (Recommendation.objects.filter(_same_object(segment), run_id=run_id,
                                          segment__parent_partition=segment.parent_partition)
            .order_by("segment__subobject_name")
            .values_list("segment_id", "segment__subobject_name", "segment__tablespace_name", "read_requests",
                         "write_requests", "iops", "size_bytes", "intensity", "measured", "recommended_tier__name",
                         "action"))
    rows = [SubpartitionRow(*values[:11], is_this=values[0] == segment.id) for values in recs]
    known_iops = [row.iops for row in rows if row.measured and row.iops is not None]
    sizes = [row.size_bytes for row in rows if row.size_bytes is not None]
    complete, sized = len(known_iops) == len(rows), len(sizes) == len(rows)
    iops = sum(known_iops) if complete else None
    size_bytes = sum(sizes) if sized else None
    intensity = iops / (size_bytes / 1024**3) if iops is not None and size_bytes else None
    return PartitionRollup(segment.parent_partition, segment.partitioning, segment.partition_bound, rows,
                           sum(row.read_requests for row in rows), sum(row.write_requests for row in rows),
                           iops, size_bytes, intensity, complete)
