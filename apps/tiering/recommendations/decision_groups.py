"""A refresh's grouped payback (apps.tiering.recommendations.grouping) applied to its decisions: the groups of the moves the
rules make or hold only for their payback, judged together; the members of a group worth moving moved.

Called by apps.tiering.recommendations.decision.build_recommendations after the seed rules have decided once; the rules
decide again, with those members' "not worth moving" lifted, only when a group changes something. No
database access: the names of the groups come through ``names``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence

import numpy as np

from apps.tiering import costmodel, rules
from apps.tiering.models import Tier, TierSet
from apps.tiering.moves import payback
from apps.tiering.recommendations import grouping
from apps.tiering.recommendations.decision_records import Coded, SegmentArrays

_MOVE = rules.ACTIONS.index(rules.ACTION_MOVE)
_NOT_WORTH_BIT = 1 << rules.FINDING_CODES.index("not_worth_moving")

#: Segment id -> (owner, object name, tablespace name), for the groups' first members.
Names = Callable[[list[int]], dict[int, tuple[str, str, str]]]


def judge_groups(*, columns: rules.Columns, decisions: rules.Decisions, ids: np.ndarray,
                 segments: SegmentArrays, cost_tier_id: np.ndarray, current_index: np.ndarray,
                 cost_index: np.ndarray, model_tiers: Sequence[costmodel.Tier], costs: np.ndarray,
                 iops: np.ndarray, gb: np.ndarray,
                 saving_per_month: np.ndarray, tier_set: TierSet, tiers: dict[int, Tier],
                 names: Names | None) -> tuple[rules.Decisions, Coded]:
    """(decisions, move_group column) once the groups are judged; ``costs``: the cost model's
    marginal (pooled) cost of each segment on each tier of ``model_tiers``."""
    candidate = (decisions.action == _MOVE) | (decisions.findings & _NOT_WORTH_BIT > 0)
    volume_columns = [i for i, tier in enumerate(model_tiers) if isinstance(tier, costmodel.VolumeTier)]
    pool = segments.tablespace_code
    divisor = float(tier_set.basis.divisor)
    marginal_now, marginal_to = (_at(costs, index) for index in (current_index, cost_index))
    pools = grouping.pools_now(model_tiers, now_index=current_index, pool=pool, iops=iops, gb=gb,
                               marginal_now=marginal_now) if volume_columns else None

    def volume_change(group: np.ndarray, count: int) -> np.ndarray:
        return grouping.volume_charge_changes(
            model_tiers, group=group, count=count, now_index=current_index, to_index=cost_index, pool=pool, iops=iops,
            gb=gb, marginal_now=marginal_now, marginal_to=marginal_to, pools=pools) / divisor

    groups = grouping.group_moves(
        candidate=candidate, cost_tier_id=cost_tier_id, partition_group=segments.partition_group,
        is_partition=segments.is_partition, tablespace_code=pool,
        pooled_now=np.isin(current_index, volume_columns), saving_usd_per_month=saving_per_month,
        policy=payback.MovePolicy(dba_cost_usd=tier_set.move_cost_usd, horizon_months=tier_set.payback_horizon_months,
                                  min_saving_usd_per_month=tier_set.min_saving_usd_per_month),
        volume_change=volume_change if volume_columns else None)
    codes = groups.group + 1
    if not len(groups):
        return decisions, Coded(codes, [""])
    lifted = groups.moves_with_group & (decisions.findings & _NOT_WORTH_BIT > 0)
    if lifted.any():
        assert columns.not_worth_moving is not None  # Columns.__post_init__ fills it
        decisions = rules.decide(dataclasses.replace(columns, not_worth_moving=columns.not_worth_moving & ~lifted))
    return decisions, Coded(codes, ["", *_labels(groups, ids, tiers, names)])


def _at(costs: np.ndarray, index: np.ndarray) -> np.ndarray:
    """Each segment's cost on tier ``index`` of ``costs`` (NaN: -1, a tier not of the set)."""
    if not index.size:
        return np.zeros(0)
    return np.where(index >= 0, costs[np.arange(index.size), np.maximum(index, 0)], np.nan)


def _labels(groups: grouping.Groups, ids: np.ndarray, tiers: dict[int, Tier], names: Names | None) -> list[str]:
    first_ids = ids[groups.first].tolist()
    named = names(first_ids) if names is not None else {}
    labels = []
    for k, segment_id in enumerate(first_ids):
        kind = int(groups.kind[k])
        if segment_id in named:
            owner, object_name, tablespace = named[segment_id]
            name = f"{owner}.{object_name}" if kind == grouping.PARTITIONS else tablespace
        else:  # not named by the caller: the group of this segment
            name = f"segment {segment_id}'s {'table' if kind == grouping.PARTITIONS else 'tablespace'}"
        tier = tiers.get(int(groups.to_tier_id[k]))
        labels.append(grouping.label(
            kind=kind, name=name, tier=tier.name if tier is not None else f"tier {int(groups.to_tier_id[k])}",
            members=int(groups.members[k]), saving_usd_per_month=float(groups.saving_usd_per_month[k]),
            worth=bool(groups.worth[k])))
    return labels
