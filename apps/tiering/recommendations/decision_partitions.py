"""A refresh's decision for partitioned tables and indexes (apps.tiering.recommendations.decision): the
partitions whose intensities differ widely, and the partition lifecycle (apps.tiering.recommendations.lifecycle)
applied to the cost model's choice. No database access.
"""

from __future__ import annotations

import numpy as np

from apps.tiering import rules
from apps.tiering.recommendations import lifecycle as lifecycle_model
from apps.tiering.recommendations.decision_records import SegmentArrays, WindowColumns


def skewed_partitions(groups: np.ndarray, is_partition: np.ndarray, intensity: np.ndarray) -> np.ndarray:
    """True for the partitions (grouped by ``groups``) of tables or indexes whose intensities differ widely."""
    skewed = np.zeros(groups.size, dtype=bool)
    partitioned = np.flatnonzero(is_partition)
    if not partitioned.size:
        return skewed
    order = partitioned[np.argsort(groups[partitioned], kind="stable")]
    keys = groups[order]
    starts = np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]])
    ends = np.append(starts[1:], order.size)
    minimum = rules.merge_thresholds()["partition_skew_min_partitions"]
    for start, end in zip(starts, ends):
        if end - start < minimum:
            continue
        members = order[start:end]
        values = intensity[members]
        pairs = [(str(i), None if np.isnan(v) else float(v)) for i, v in enumerate(values)]
        if rules.partition_skew(pairs) is not None:
            skewed[members] = True
    return skewed


def partition_lifecycle_apply(*, segments: SegmentArrays, intensity: np.ndarray, window: WindowColumns,
                              unmeasured: np.ndarray, sized: np.ndarray, costs: np.ndarray, choice: np.ndarray,
                              chosen_cost: np.ndarray, cost_tier_id: np.ndarray,
                              ) -> tuple[lifecycle_model.Lifecycle, np.ndarray, np.ndarray, np.ndarray]:
    """(lifecycle, choice, chosen_cost, cost_tier_id) after the partition lifecycle (apps.tiering.recommendations.lifecycle):
    an empty partition newer than its table's hot one takes the hot one's tier as its cost model's tier, priced
    there on its own figures, so that the rules move it there (or keep it where it is there already)."""
    lifecycle = lifecycle_of(segments=segments, intensity=intensity, window=window, unmeasured=unmeasured, sized=sized)
    ahead = np.flatnonzero(lifecycle.ahead)
    if not ahead.size:
        return lifecycle, choice, chosen_cost, cost_tier_id
    choice, chosen_cost, cost_tier_id = choice.copy(), chosen_cost.copy(), cost_tier_id.copy()
    choice[ahead] = choice[lifecycle.hot[ahead]]
    chosen_cost[ahead] = costs[ahead, choice[ahead]]
    cost_tier_id[ahead] = cost_tier_id[lifecycle.hot[ahead]]
    return lifecycle, choice, chosen_cost, cost_tier_id


def lifecycle_exempt(lifecycle: lifecycle_model.Lifecycle, *holds: np.ndarray) -> None:
    """A partition placed ahead of its month is neither judged on its saving now (it has no IO yet: the
    placement pays off when its month comes) nor held back as a move back: ``holds`` cleared in place."""
    for held in holds:
        held[lifecycle.ahead] = False


def lifecycle_members(lifecycle: lifecycle_model.Lifecycle, interval: np.ndarray) -> np.ndarray:
    """The segments the partition_lifecycle finding is on: the partitions placed ahead, their hot partitions
    and the hot partition of an interval-partitioned table (its future partitions do not exist yet: its
    DDL sends them where it goes, apps.tiering.ddl.lifecycle)."""
    hot = lifecycle.hot
    members = lifecycle.ahead.copy()
    members[np.unique(np.r_[hot[lifecycle.ahead], hot[interval & (hot >= 0)]]).astype(np.int64)] = True
    return members


def lifecycle_of(*, segments: SegmentArrays, intensity: np.ndarray, window: WindowColumns,
                 unmeasured: np.ndarray, sized: np.ndarray) -> lifecycle_model.Lifecycle:
    """apps.tiering.recommendations.lifecycle.partition_lifecycle of a refresh's segments."""
    groups = np.where(segments.is_partition, segments.partition_group, 0)
    return lifecycle_model.partition_lifecycle(
        groups=groups, positions=segments.partition_position.astype(np.int64), intensity=intensity,
        requests=(window.read_requests + window.write_requests).astype(np.float64), measured=~unmeasured,
        placeable=sized & (segments.movability == 0))
