"""A fleet budget of one tier: the candidates of every target that has the tier (apps.tiering.budget.selectors),
split by apps.tiering.budget.split with the places the previous budget run of the tier chose, the draft plans
it implies, and the runs remembered.

**Memory.** A budget is remembered when it is acted on: when its plans are made (the fleet page's "Make the
plans", ``manage.py budget --plan``) or on purpose (``manage.py budget --remember``). The next budget of the
tier reads the latest one: the segments it placed on the tier hold their places (apps.tiering.budget.worth), so
a budget run again a day later on slightly different figures does not swap the same segments back and forth.
A split that is only looked at (the fleet page's GET, the command without those options) changes nothing.

Tier names are unique (Tier.name), so every target that has the tier shares its set, its price, its basis,
its payback terms and its margin; the split still converts a USD budget per target.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

import numpy as np
from django.db import transaction
from django.utils import timezone

from apps.targets.models import Target
from apps.tiering import costmodel
from apps.tiering.budget.explain import KEPT_REASONS
from apps.tiering.budget.fleet import BudgetEviction, BudgetKept, BudgetSegment, FleetBudget
from apps.tiering.budget.models import ID_DTYPE, BudgetRun
from apps.tiering.budget.outcomes import GB, Outcome
from apps.tiering.budget.selectors import budget_candidates, budget_run_chosen, budget_run_latest, budget_tier_names
from apps.tiering.budget.split import BudgetError, Capacity, Items, TargetTerms, budget_split, usd_per_gb_month
from apps.tiering.models import Tier
from apps.tiering.moves import payback
from apps.tiering.plans.models import Plan
from apps.tiering.plans.services import PlanMove, plan_create
from apps.tiering.plans.steps import PlanError
from apps.tiering.tiers import tier_to_model

_CENT = Decimal("0.01")
#: Runs kept per tier. The next budget reads only the latest; the few before it stay so that an admin can see
#: what the budgets chose lately (Django admin), and older ones are deleted when a run is remembered.
RUNS_KEPT = 10


def fleet_budget(*, tier_name: str, gb: float | None = None, usd_per_month: float | None = None) -> FleetBudget:
    """Split a budget of ``gb`` (or ``usd_per_month``) of tier ``tier_name`` across the enabled targets whose
    tier set has it, the places of the tier's last remembered run held (module docstring). Raises BudgetError
    (one line) for an unknown tier, a budget <= 0, or a tier no enabled target has."""
    capacity = Capacity(gb=gb, usd_per_month=usd_per_month)
    tier = Tier.objects.select_related("tier_set").filter(name=tier_name).first()
    if tier is None:
        known = ", ".join(budget_tier_names()) or "none"
        raise BudgetError(f"unknown tier {tier_name!r}; the enabled targets' tiers are: {known}")
    enabled = list(Target.objects.filter(enabled=True).order_by("name"))
    targets = tuple(t for t in enabled if t.tier_set_id == tier.tier_set_id)
    if not targets:
        compared = sorted({t.tier_set_id for t in enabled if t.tier_set_id is not None})  # all are: NOT NULL
        raise BudgetError(f"no enabled target has tier {tier.name!r}: it is in set {tier.tier_set_id!r}, and "
                          f"the enabled targets compare {', '.join(compared) or 'none'}")
    set_tiers = list(Tier.objects.filter(tier_set_id=tier.tier_set_id).order_by("pk"))
    tier_set = tier.tier_set
    try:
        price = usd_per_gb_month(tier_to_model(tier).usd_per_gb, tier_set.basis.divisor)
        for other in set_tiers:
            tier_to_model(other)
    except costmodel.CostModelError as exc:
        raise BudgetError(f"set {tier.tier_set_id!r} cannot be priced: {exc}") from None
    policy = payback.MovePolicy(dba_cost_usd=tier_set.move_cost_usd, horizon_months=tier_set.payback_horizon_months,
                                min_saving_usd_per_month=tier_set.min_saving_usd_per_month)
    rows = budget_candidates(targets=targets, tier=tier, set_tiers=set_tiers, divisor=tier_set.basis.divisor,
                             policy=policy)
    previous = budget_run_latest(tier_id=tier.pk)
    items = Items(
        target=rows["target"], segment_id=rows["segment_id"], size_bytes=rows["size_bytes"], on_tier=rows["on_tier"],
        may_move=rows["may_move"], cost_on_tier=rows["cost_on_tier"], cost_elsewhere=rows["cost_elsewhere"],
        saving_if_moved=rows["saving"], move_cost_usd=rows["move_cost"],
        incumbent=_chosen_before(rows["segment_id"], previous),
    )
    terms = tuple(TargetTerms(t.name, policy, price, margin=float(tier_set.hysteresis_band)) for t in targets)
    return FleetBudget(tier=tier, capacity=capacity, split=budget_split(items, terms, capacity), targets=targets,
                       left_out=tuple(t.name for t in enabled if t.tier_set_id != tier.tier_set_id), rows=rows,
                       usd_per_gb_month=price, tier_names={t.pk: t.name for t in set_tiers}, items=items,
                       terms=terms, previous=previous)


def _chosen_before(segment_id: np.ndarray, previous: BudgetRun | None) -> np.ndarray:
    """Whether the previous run placed each segment on the tier (its ids are sorted: a binary search each)."""
    if previous is None:
        return np.zeros(segment_id.size, dtype=bool)
    chosen = budget_run_chosen(run=previous)
    if not chosen.size:
        return np.zeros(segment_id.size, dtype=bool)
    at = np.minimum(np.searchsorted(chosen, segment_id), chosen.size - 1)
    return chosen[at] == segment_id


def budget_run_remember(*, budget: FleetBudget, author: Any, author_name: str, how: str,
                        now: dt.datetime | None = None) -> BudgetRun:
    """Remember ``budget``: the segments it places on the tier become the places the tier's next budget holds
    (module docstring); the tier's runs beyond the latest RUNS_KEPT are deleted."""
    on_after = np.isin(budget.split.outcome, (Outcome.STAYS, Outcome.MOVES_IN, Outcome.KEPT, Outcome.KEPT_NOT_REPAYING))
    chosen = np.sort(budget.rows["segment_id"][on_after]).astype(ID_DTYPE)
    with transaction.atomic():
        run = BudgetRun.objects.create(
            tier=budget.tier, made_at=now or timezone.now(), made_by=author if getattr(author, "pk", None) else None,
            made_by_name=author_name, budget_gb=budget.capacity.gb, budget_usd_per_month=budget.capacity.usd_per_month,
            how=how[:200], chosen_count=int(chosen.size),
            chosen_gb=float(np.maximum(budget.rows["size_bytes"][on_after], 0).sum() / GB),
            chosen_segment_ids=chosen.tobytes(),
        )
        stale = BudgetRun.objects.filter(tier=budget.tier).order_by("-made_at", "-id").values_list("pk", flat=True)
        BudgetRun.objects.filter(pk__in=list(stale[RUNS_KEPT:])).delete()
    return run


@dataclass(frozen=True)
class BudgetPlans:
    """The draft plans a budget implies, one per target with moves, the targets none could be made for, and
    the run remembered for the tier's next budget."""

    plans: tuple[Plan, ...]
    refused: tuple[tuple[str, str], ...]  # (target, why)
    run: BudgetRun | None = None


def fleet_budget_plans(*, budget: FleetBudget, author: Any, author_name: str,
                       now: dt.datetime | None = None) -> BudgetPlans:
    """A draft plan per target from the budget's moves (apps.tiering.plans.services.plan_create): its moves in
    and its moves out that save are the targets' current recommendations as they are; a move out the budget
    forces (the tier is the segment's cheapest, but it has no room) is carried to its best other tier with the
    budget's figures (plans.services.PlanMove). Its source says 'fleet budget N GB of TIER'; each eviction's
    step says what it costs and what its replacement earns, each move in that holds a place why it keeps it.
    The budget is remembered for the tier's next one (budget_run_remember)."""
    plans, refused = [], []
    tier_rows = {t.pk: t for t in Tier.objects.filter(pk__in=list(budget.tier_names))}
    with transaction.atomic():  # the plans and the run remembered, or nothing
        for index, target in enumerate(budget.targets):
            made = _target_plan(budget, index, target, tier_rows, author=author, author_name=author_name, now=now)
            if isinstance(made, Plan):
                plans.append(made)
            elif made:
                refused.append((target.name, made))
        listed = ", ".join(f"plan {plan.pk}" for plan in plans)
        run = budget_run_remember(budget=budget, author=author, author_name=author_name, now=now,
                                  how=f"its plans: {listed}" if plans else "its plans (none: it moves nothing)")
    return BudgetPlans(tuple(plans), tuple(refused), run)


def _target_plan(budget: FleetBudget, index: int, target: Target, tiers: dict[int, Tier], *, author: Any,
                 author_name: str, now: dt.datetime | None) -> Plan | str | None:
    """The target's plan, why none could be made, or None: the budget moves nothing on it."""
    moves = _plan_moves(budget, index, tiers, target.tier_set.basis.divisor)
    if not moves:
        return None
    evictions = budget.evictions(target_index=index)
    notes = {e.segment_id: e.words for e in evictions}
    notes.update({k.segment_id: k.words for k in budget.kept(reasons=KEPT_REASONS, target_index=index,
                                                              moving_in=True)})
    try:
        return plan_create(target=target, author=author, author_name=author_name, moves=moves, source=budget.source,
                           now=now, note=_plan_note(evictions), notes=notes)
    except PlanError as exc:
        return str(exc)


def _plan_note(evictions: list[BudgetEviction]) -> str:
    """A plan's note on its evictions (the plan list shows it): what they cost and what takes their room."""
    if not evictions:
        return ""
    horizon = evictions[0].horizon_months
    return (f"{len(evictions)} eviction{'s' if len(evictions) != 1 else ''}: "
            f"${sum(e.cost_usd for e in evictions):,.2f} once and ${sum(e.loses_usd_per_month for e in evictions):,.2f}"
            f" a month lost, ${sum(e.loses_usd for e in evictions):,.2f} over {horizon:g} months; the segments "
            f"taking their room earn ${sum(e.replacement_earns_usd for e in evictions):,.2f} on it")[:300]


def _plan_moves(budget: FleetBudget, index: int, tiers: dict[int, Tier], divisor: int) -> dict[int, PlanMove | None]:
    rows, outcome = budget.rows, budget.split.outcome
    mine = rows["target"] == index
    moves: dict[int, PlanMove | None] = {int(s): None for s in rows["segment_id"][mine & np.isin(outcome, (
        Outcome.MOVES_IN, Outcome.MOVES_OUT))].tolist()}
    for i in np.flatnonzero(mine & (outcome == Outcome.EVICTED)).tolist():
        saving = Decimal(repr(float(rows["saving"][i]) * divisor)).quantize(_CENT, ROUND_HALF_UP)
        seconds = float(rows["move_out_seconds"][i])
        moves[int(rows["segment_id"][i])] = PlanMove(
            tier=tiers[int(rows["elsewhere_tier_id"][i])], saving_usd=saving,
            move_seconds=None if np.isnan(seconds) else seconds, move_redo_bytes=int(rows["size_bytes"][i]),
            move_cost_usd=Decimal(repr(float(rows["move_cost"][i]))).quantize(_CENT, ROUND_HALF_UP),
            payback_days=None)
    return moves


__all__ = ["BudgetError", "BudgetEviction", "BudgetKept", "BudgetPlans", "BudgetSegment", "FleetBudget",
           "budget_run_remember", "budget_tier_names", "fleet_budget", "fleet_budget_plans"]
