"""Flash-capacity selection for one target's objects: "given N GB of flash, which segments give the most".

A 0/1 knapsack on each object's value on the tier: greedy by value per GB, an
LP (Dantzig) upper bound, and a CBC MILP (through PuLP, as the placement
optimiser, :mod:`apps.tiering.optimizer`) when the greedy answer is not proven
optimal. The fleet-wide split of a budget (millions of segments) is
:mod:`apps.tiering.budget`, greedy only.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from apps.tiering.costmodel import CostModelError, StorageObject, Tier, choose_tiers, float_to_cents
from apps.tiering.optimizer import MILP_GAP_REL, cbc_solver


@dataclass(frozen=True)
class CapacitySelection:
    """Which objects to put on a limited tier (e.g. N GB of flash already owned).

    ``chosen`` lists object names by decreasing value per GB. ``value_usd``
    is what the selection saves: the cost of each chosen object on the tier
    it leaves (its current tier, else its cheapest other tier), minus its cost
    on the target tier unless that tier is sunk cost. ``upper_bound_usd``
    bounds every selection's value; ``method`` is "greedy" (the bound proved
    it optimal), "milp" (CBC proved it) or "milp-time-limit".
    """

    tier_name: str
    capacity_gb: float
    capacity_iops: float | None
    chosen: tuple[str, ...]
    used_gb: float
    used_iops: float
    value_usd: Decimal
    upper_bound_usd: Decimal
    method: str

    @property
    def gap_pct(self) -> float:
        if self.upper_bound_usd <= 0:
            return 0.0
        return float((self.upper_bound_usd - self.value_usd) / self.upper_bound_usd * 100)


def select_for_capacity(
    objects: Sequence[StorageObject],
    tiers: Sequence[Tier],
    *,
    tier_name: str,
    capacity_gb: float,
    capacity_iops: float | None = None,
    target_cost_sunk: bool = True,
    time_limit_s: float = 10.0,
) -> CapacitySelection:
    """Given ``capacity_gb`` on ``tier_name``, the objects that save the most.

    A 0/1 knapsack on value per object (see :class:`CapacitySelection`):
    greedy by value per GB, an LP (Dantzig) upper bound, and a CBC MILP when
    the greedy answer is not proven optimal.
    """
    target_index = _tier_index(tiers, tier_name)
    values = _selection_values(objects, tiers, target_index, target_cost_sunk)
    candidates = sorted(
        (i for i, value in enumerate(values) if value > 0), key=lambda i: values[i] / objects[i].gb, reverse=True
    )
    chosen = _greedy(objects, candidates, capacity_gb, capacity_iops)
    bound = _dantzig_bound(objects, values, candidates, capacity_gb)
    greedy_value = sum(values[i] for i in chosen)
    method = "greedy"
    if bound - greedy_value > max(1e-6, abs(bound) * MILP_GAP_REL):
        chosen, method, bound = _knapsack_milp(
            objects, values, candidates, chosen, capacity_gb, capacity_iops, time_limit_s, bound
        )
    ordered = sorted(chosen, key=lambda i: values[i] / objects[i].gb, reverse=True)
    value = sum(values[i] for i in ordered)
    return CapacitySelection(
        tier_name=tier_name,
        capacity_gb=capacity_gb,
        capacity_iops=capacity_iops,
        chosen=tuple(objects[i].name for i in ordered),
        used_gb=math.fsum(objects[i].gb for i in ordered),
        used_iops=math.fsum(objects[i].iops for i in ordered),
        value_usd=float_to_cents(value),
        upper_bound_usd=float_to_cents(max(bound, value)),
        method=method,
    )


def _tier_index(tiers: Sequence[Tier], tier_name: str) -> int:
    for index, tier in enumerate(tiers):
        if tier.name == tier_name:
            return index
    raise CostModelError(f"unknown tier {tier_name!r}")


def _selection_values(
    objects: Sequence[StorageObject], tiers: Sequence[Tier], target: int, target_cost_sunk: bool
) -> list[float]:
    values = []
    for choice in choose_tiers(objects, tiers):
        others = [cost for index, cost in enumerate(choice.costs_usd) if index != target]
        leaving = min(others) if others else 0.0
        current = choice.obj.current_tier
        for index, tier in enumerate(tiers):
            if tier.name == current and index != target:
                leaving = choice.costs_usd[index]
        values.append(leaving - (0.0 if target_cost_sunk else choice.costs_usd[target]))
    return values


def _greedy(
    objects: Sequence[StorageObject], candidates: Sequence[int], capacity_gb: float, capacity_iops: float | None
) -> list[int]:
    chosen, used_gb, used_iops = [], 0.0, 0.0
    for i in candidates:
        obj = objects[i]
        if used_gb + obj.gb > capacity_gb * (1 + 1e-12):
            continue
        if capacity_iops is not None and used_iops + obj.iops > capacity_iops * (1 + 1e-12):
            continue
        chosen.append(i)
        used_gb += obj.gb
        used_iops += obj.iops
    return chosen


def _dantzig_bound(
    objects: Sequence[StorageObject], values: Sequence[float], candidates: Sequence[int], capacity_gb: float
) -> float:
    """LP bound of the GB knapsack (the IOPS limit only lowers the optimum)."""
    room, bound = capacity_gb, 0.0
    for i in candidates:
        gb = objects[i].gb
        if gb <= room:
            room -= gb
            bound += values[i]
        else:
            return bound + values[i] * room / gb
    return bound


def _knapsack_milp(  # type: ignore[no-untyped-def]
    objects, values, candidates, greedy, capacity_gb, capacity_iops, time_limit_s, bound
) -> tuple[list[int], str, float]:
    import pulp

    problem = pulp.LpProblem("capacity", pulp.LpMaximize)
    take = {i: problem.add_variable(f"z_{i}", 0, 1, cat=pulp.LpBinary) for i in candidates}
    problem += pulp.lpSum(values[i] * z for i, z in take.items())
    problem += pulp.lpSum(objects[i].gb * z for i, z in take.items()) <= capacity_gb
    if capacity_iops is not None:
        problem += pulp.lpSum(objects[i].iops * z for i, z in take.items()) <= capacity_iops
    chosen_set = set(greedy)
    for i, z in take.items():
        z.setInitialValue(1 if i in chosen_set else 0)
    problem.solve(cbc_solver(pulp, time_limit_s, warm_start=True, log_path=None))
    if problem.sol_status not in (pulp.LpSolutionOptimal, pulp.LpSolutionIntegerFeasible):
        return list(greedy), "greedy", bound
    picked = [i for i, z in take.items() if (z.varValue or 0) > 0.5]
    if sum(values[i] for i in picked) < sum(values[i] for i in greedy):
        picked = list(greedy)
    if problem.sol_status == pulp.LpSolutionOptimal:
        objective = float(pulp.value(problem.objective))
        return picked, "milp", min(bound, objective * (1 + MILP_GAP_REL))
    return picked, "milp-time-limit", bound
