"""Placement optimisation over pooled tiers, and flash-capacity selection.

The per-object choice of :mod:`apps.tiering.costmodel` ignores pooling: a
tier's devices (or volumes) are shared, so the whole placement is often
cheaper when a few objects ride on capacity or IOPS another object already
paid for. :func:`optimize_placement` minimises the total over all assignments:

* exact enumeration when tiers ** objects is small;
* otherwise a MILP solved by CBC through PuLP (msg off, time-limited),
  warm-started from the best of: per-object, all-on-one-tier and a local
  search over single-object moves.

Every candidate is re-costed exactly by :func:`costmodel.place`; the best one
wins, so the optimised total never exceeds the recommended one. The lower
bound is the LP relaxation, or the MILP's objective when CBC proves it
optimal (the MILP is itself a relaxation for cloud volume counts, see
``_add_volume_tier``), or the optimum itself after enumeration.

"Given N GB of flash, which segments give the most" is the fleet budget's question: apps.tiering.budget.
"""

from __future__ import annotations

import itertools
import math
import os
import re
import tempfile
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import pulp

from apps.tiering.costmodel import (
    CostModelError,
    DeviceTier,
    LinearTier,
    PerformanceLevelTier,
    Placement,
    ProvisionedIopsTier,
    StorageObject,
    Tier,
    VolumeTier,
    choose_tiers,
    place,
    to_decimal,
)

#: Largest tiers ** objects enumerated exactly (each candidate costs O(N)).
EXACT_MAX_ASSIGNMENTS = 50_000
#: CBC stops when the relative gap between incumbent and bound is below this.
MILP_GAP_REL = 1e-6
# Cost added per GB or device over a tier's limit in the local search, so
# that infeasible starts are repaired before cost is traded.
_OVER_LIMIT_PENALTY = 1e9
_LOCAL_SEARCH_PASSES = 25


class InfeasiblePlacementError(CostModelError):
    """No assignment respects the tiers' capacity limits."""


@dataclass(frozen=True)
class OptimizationResult:
    """The cheapest placement found and how far from optimal it can be.

    ``lower_bound_usd`` is a proven lower bound on every placement's total;
    ``gap_pct`` = (total - bound) / total x 100. ``method`` is "exact",
    "milp" (CBC proved optimality within ``MILP_GAP_REL``), "milp-time-limit"
    (CBC stopped on time with a solution) or "heuristic" (CBC found nothing
    better than the starts).
    """

    placement: Placement
    lower_bound_usd: Decimal
    gap_pct: float
    method: str


def optimize_placement(
    objects: Sequence[StorageObject],
    tiers: Sequence[Tier],
    *,
    time_limit_s: float = 30.0,
    name: str = "optimized",
    exact_max_assignments: int = EXACT_MAX_ASSIGNMENTS,
) -> OptimizationResult:
    """The placement with the lowest total cost that respects tier limits.

    Raises :class:`InfeasiblePlacementError` when the limits (``max_gb``,
    ``max_devices``) cannot hold all objects.
    """
    if not tiers:
        raise CostModelError("no tiers given")
    objects = list(objects)
    if not objects:
        return OptimizationResult(place(name, [], tiers, []), Decimal(0), 0.0, "exact")
    if len(tiers) ** len(objects) <= exact_max_assignments:
        return _optimize_exact(objects, tiers, name)
    return _optimize_milp(objects, tiers, name, time_limit_s)


# -- float evaluation -------------------------------------------------------


def _over_limit(tier: Tier, gb: float, iops: float) -> float:
    """How far a pool exceeds the tier's limits (GB + devices), 0 when it fits."""
    excess = 0.0
    if tier.max_gb is not None and gb > tier.max_gb * (1 + 1e-12):
        excess += gb - tier.max_gb
    if isinstance(tier, DeviceTier) and tier.max_devices is not None:
        excess += max(0, tier.devices_float(gb, iops) - tier.max_devices)
    return excess


def _pool_cost(tier: Tier, gb: float, iops: float) -> float:
    return tier.pool_cost_float(gb, iops) + _OVER_LIMIT_PENALTY * _over_limit(tier, gb, iops)


def _sums(objects: Sequence[StorageObject], tier_count: int, indexes: Sequence[int]) -> tuple[list[float], list[float]]:
    gb_sums = [0.0] * tier_count
    iops_sums = [0.0] * tier_count
    for obj, index in zip(objects, indexes):
        gb_sums[index] += obj.gb
        iops_sums[index] += obj.iops
    return gb_sums, iops_sums


def _total(tiers: Sequence[Tier], gb_sums: Sequence[float], iops_sums: Sequence[float]) -> float:
    return sum(_pool_cost(tier, gb, iops) for tier, gb, iops in zip(tiers, gb_sums, iops_sums))


# -- exact enumeration ------------------------------------------------------


def _optimize_exact(objects: list[StorageObject], tiers: Sequence[Tier], name: str) -> OptimizationResult:
    best_cost = math.inf
    best: tuple[int, ...] | None = None
    for indexes in itertools.product(range(len(tiers)), repeat=len(objects)):
        gb_sums, iops_sums = _sums(objects, len(tiers), indexes)
        if any(_over_limit(t, g, i) > 0 for t, g, i in zip(tiers, gb_sums, iops_sums)):
            continue
        cost = _total(tiers, gb_sums, iops_sums)
        if cost < best_cost - 1e-9:
            best_cost, best = cost, indexes
    if best is None:
        raise InfeasiblePlacementError("no assignment of the objects fits the tiers' capacity limits")
    placement = _placement(name, objects, tiers, best)
    return OptimizationResult(placement, placement.total_cost_usd, 0.0, "exact")


def _placement(name: str, objects: Sequence[StorageObject], tiers: Sequence[Tier], indexes: Sequence[int]) -> Placement:
    return place(name, objects, tiers, [tiers[index].name for index in indexes])


# -- heuristic starts -------------------------------------------------------


def _local_search(objects: Sequence[StorageObject], tiers: Sequence[Tier], start: Sequence[int]) -> list[int]:
    """Move single objects between tiers while the pooled total drops."""
    indexes = list(start)
    gb_sums, iops_sums = _sums(objects, len(tiers), indexes)
    pool = [_pool_cost(t, g, i) for t, g, i in zip(tiers, gb_sums, iops_sums)]
    for _ in range(_LOCAL_SEARCH_PASSES):
        improved = False
        for position, obj in enumerate(objects):
            source = indexes[position]
            source_after = _pool_cost(tiers[source], gb_sums[source] - obj.gb, iops_sums[source] - obj.iops)
            best_gain, best_target, best_after = 1e-9, -1, 0.0
            for target, tier in enumerate(tiers):
                if target == source:
                    continue
                target_after = _pool_cost(tier, gb_sums[target] + obj.gb, iops_sums[target] + obj.iops)
                gain = pool[source] + pool[target] - source_after - target_after
                if gain > best_gain:
                    best_gain, best_target, best_after = gain, target, target_after
            if best_target >= 0:
                gb_sums[source] -= obj.gb
                iops_sums[source] -= obj.iops
                gb_sums[best_target] += obj.gb
                iops_sums[best_target] += obj.iops
                pool[source], pool[best_target] = source_after, best_after
                indexes[position] = best_target
                improved = True
        if not improved:
            break
    return indexes


def _starts(objects: Sequence[StorageObject], tiers: Sequence[Tier]) -> list[list[int]]:
    per_object = [choice.tier_index for choice in choose_tiers(objects, tiers)]
    starts = [per_object] + [[index] * len(objects) for index in range(len(tiers))]
    return starts + [_local_search(objects, tiers, per_object)]


def _float_total(objects: Sequence[StorageObject], tiers: Sequence[Tier], indexes: Sequence[int]) -> float:
    gb_sums, iops_sums = _sums(objects, len(tiers), indexes)
    return _total(tiers, gb_sums, iops_sums)


def _feasible(objects: Sequence[StorageObject], tiers: Sequence[Tier], indexes: Sequence[int]) -> bool:
    gb_sums, iops_sums = _sums(objects, len(tiers), indexes)
    return all(_over_limit(t, g, i) == 0 for t, g, i in zip(tiers, gb_sums, iops_sums))


# -- MILP -------------------------------------------------------------------


def _optimize_milp(
    objects: list[StorageObject], tiers: Sequence[Tier], name: str, time_limit_s: float
) -> OptimizationResult:
    candidates = [s for s in _starts(objects, tiers) if _feasible(objects, tiers, s)]
    warm = min(candidates, key=lambda s: _float_total(objects, tiers, s)) if candidates else None
    solution = _solve(objects, tiers, relax=False, warm=warm, time_limit_s=time_limit_s)
    if solution.status == "infeasible":
        raise InfeasiblePlacementError("no assignment of the objects fits the tiers' capacity limits")
    if solution.indexes is not None and _feasible(objects, tiers, solution.indexes):
        candidates.append(solution.indexes)
    if not candidates:
        raise InfeasiblePlacementError("the solver found no placement within its time limit")
    placements = [_placement(name, objects, tiers, indexes) for indexes in candidates]
    best = min(placements, key=lambda p: p.total_cost_usd)
    bound = solution.bound
    if bound is None:
        bound = _solve(objects, tiers, relax=True, warm=None, time_limit_s=time_limit_s).objective
    lower = min(to_decimal(round(bound or 0.0, 6)), best.total_cost_usd)
    method = {"optimal": "milp", "time-limit": "milp-time-limit"}.get(solution.status, "heuristic")
    return OptimizationResult(best, lower, _gap_pct(best.total_cost_usd, lower), method)


def _gap_pct(total: Decimal, bound: Decimal) -> float:
    if total <= 0:
        return 0.0
    return float((total - bound) / total * 100)


@dataclass(frozen=True)
class _Solution:
    indexes: list[int] | None  # tier index per object, None without a solution
    status: str  # "optimal", "time-limit", "infeasible" or "no-solution"
    objective: float | None
    bound: float | None  # proven lower bound of the model, when CBC gave one


def _solve(
    objects: Sequence[StorageObject],
    tiers: Sequence[Tier],
    *,
    relax: bool,
    warm: Sequence[int] | None,
    time_limit_s: float,
) -> _Solution:
    """Solve the placement MILP (or its LP relaxation) with CBC."""
    category = pulp.LpContinuous if relax else pulp.LpBinary
    problem = pulp.LpProblem("placement", pulp.LpMinimize)
    assign = [
        [problem.add_variable(f"x_{i}_{t}", 0, 1, cat=category) for t in range(len(tiers))]
        for i in range(len(objects))
    ]
    for row in assign:
        problem += pulp.lpSum(row) == 1
    columns = [[row[t] for row in assign] for t in range(len(tiers))]
    problem += pulp.lpSum(
        _add_tier(problem, pulp, tier, t, columns[t], objects, relax) for t, tier in enumerate(tiers)
    )
    if warm is not None:
        for row, index in zip(assign, warm):
            for t, variable in enumerate(row):
                variable.setInitialValue(1 if t == index else 0)
    with tempfile.TemporaryDirectory(prefix="tierscope-cbc-") as folder:
        log_path = os.path.join(folder, "cbc.log")
        problem.solve(cbc_solver(pulp, time_limit_s, warm_start=warm is not None, log_path=log_path))
        with open(log_path, encoding="utf-8", errors="replace") as log:
            log_bound = _log_lower_bound(log.read())
    return _read_solution(pulp, problem, assign, relax, log_bound)


# PuLP ships no types: the module (imported lazily, passed in) and its problems, variables and expressions are Any.
def cbc_solver(pulp: Any, time_limit_s: float, *, warm_start: bool, log_path: str | None) -> Any:
    """The CBC binary bundled with PuLP, quiet and time-limited."""
    with warnings.catch_warnings():
        # PuLP 3.x announces the bundled CBC goes away in 4.0; the pinned
        # version ships it, and COIN_CMD needs a separately installed cbc.
        warnings.filterwarnings("ignore", message="PULP_CBC_CMD is deprecated", category=DeprecationWarning)
        return pulp.PULP_CBC_CMD(
            msg=False,
            timeLimit=max(1, math.ceil(time_limit_s)),
            gapRel=MILP_GAP_REL,
            warmStart=warm_start,
            logPath=log_path,
        )


def _log_lower_bound(log_text: str) -> float | None:
    """CBC's summary prints "Lower bound:" when it stops before optimality."""
    found = _LOWER_BOUND.search(log_text)
    return float(found.group(1)) if found else None


_LOWER_BOUND = re.compile(r"^Lower bound:\s+(-?[0-9.]+(?:[eE][-+]?[0-9]+)?)", re.MULTILINE)


def _read_solution(
    pulp: Any, problem: Any, assign: list[list[Any]], relax: bool, log_bound: float | None
) -> _Solution:
    if pulp.LpStatus[problem.status] == "Infeasible":
        return _Solution(None, "infeasible", None, None)
    if problem.sol_status not in (pulp.LpSolutionOptimal, pulp.LpSolutionIntegerFeasible):
        return _Solution(None, "no-solution", None, log_bound)
    objective = pulp.value(problem.objective)
    objective = float(objective) if objective is not None else None
    if problem.sol_status == pulp.LpSolutionOptimal:
        # Optimal within gapRel: the bound is the objective less that gap.
        bound = objective if relax or objective is None else objective * (1 - MILP_GAP_REL)
        status = "optimal"
    else:
        bound, status = log_bound, "time-limit"
    indexes = None if relax else [max(range(len(row)), key=lambda t: row[t].varValue or 0.0) for row in assign]
    return _Solution(indexes, status, objective, bound)


def _add_tier(
    problem: Any, pulp: Any, tier: Tier, t: int, column: list[Any], objects: Sequence[StorageObject], relax: bool
) -> Any:
    """Constraints for one tier; returns its cost expression."""
    gb = pulp.lpSum(obj.gb * x for obj, x in zip(objects, column))
    iops = pulp.lpSum(obj.iops * x for obj, x in zip(objects, column))
    if tier.max_gb is not None:
        problem += gb <= tier.max_gb
    integer = pulp.LpContinuous if relax else pulp.LpInteger
    if isinstance(tier, DeviceTier):
        devices = problem.add_variable(f"devices_{t}", 0, tier.max_devices, cat=integer)
        problem += tier.device_gb * devices >= gb
        problem += tier.device_iops * devices >= iops
        return float(tier.device_cost_usd) * devices
    if isinstance(tier, LinearTier):
        cost = problem.add_variable(f"cost_{t}", 0)
        problem += cost >= float(tier.usd_per_gb_price) * gb
        problem += cost >= float(tier.usd_per_iops_price) * iops
        return cost
    if isinstance(tier, VolumeTier):
        return _add_volume_tier(problem, pulp, tier, t, column, gb, iops, integer)
    raise CostModelError(f"tier {tier.name!r}: kind {type(tier).__name__} is not supported by the optimizer")


def _add_volume_tier(
    problem: Any, pulp: Any, tier: VolumeTier, t: int, column: list[Any], gb: Any, iops: Any, integer: str
) -> Any:
    """Cloud volume tiers.

    The exact rule uses the fewest volumes v* = max(1, ceil(GB/vmax_gb),
    ceil(IOPS/vmax_iops)); here v may be anything in [v*, used + GB/vmax_gb +
    IOPS/vmax_iops], a superset, so the MILP optimum is a valid lower bound
    and its assignment is re-costed with the exact rule afterwards.
    """
    relaxed = integer == pulp.LpContinuous
    used = problem.add_variable(f"used_{t}", 0, 1, cat=pulp.LpContinuous if relaxed else pulp.LpBinary)
    volumes = problem.add_variable(f"volumes_{t}", 0, None, cat=integer)
    billed = problem.add_variable(f"billed_gb_{t}", 0)
    problem += pulp.lpSum(column) <= len(column) * used
    problem += volumes >= used
    problem += tier.volume_max_gb * volumes >= gb
    iops_share = 0
    if tier.volume_max_iops:
        problem += tier.volume_max_iops * volumes >= iops
        iops_share = iops * (1.0 / tier.volume_max_iops)
    problem += volumes <= used + gb * (1.0 / tier.volume_max_gb) + iops_share
    problem += billed >= gb
    problem += billed >= tier.volume_min_gb * volumes
    per_gb = float(tier.usd_per_gb_price)
    if isinstance(tier, PerformanceLevelTier):
        problem += billed >= iops * (1.0 / tier.iops_per_gb)
        return per_gb * billed
    assert isinstance(tier, ProvisionedIopsTier)
    if tier.max_iops_per_gb:
        problem += billed >= iops * (1.0 / tier.max_iops_per_gb)
    extra = problem.add_variable(f"extra_iops_{t}", 0)
    problem += extra >= iops - tier.included_iops_per_volume * volumes
    return per_gb * billed + float(tier.usd_per_iops_price or 0) * extra
