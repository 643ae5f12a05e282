"""A fleet budget of one tier (issue 17, part 3): the current recommendations of every target that has the
tier, read in one query, split by apps.tiering.budget, and the draft plans it implies.

Which segments compete, from each target's current recommendation (so that payback, hysteresis, the seed
rules' flash vetoes, movability and unmeasured figures are honoured as the refresh decided them):

* off the tier: those whose recommendation is a move onto it (``move``; never ``place_ahead``: an empty
  partition saves nothing per GB yet);
* on it: every segment, free to leave unless its recommendation holds it (not movable, IO not measured,
  a move back held by hysteresis, an empty partition placed ahead of its month with its table's hot one);
* a segment whose IOPS or size is unknown is never a candidate; it is counted (and on the tier, kept).

A segment's value is its cost on its best other tier of its set minus its cost on the tier
(costmodel.cost_matrix over its stored IOPS and size, pooled as the refresh prices it), per month in its
set's billing basis. Tier names are unique (Tier.name), so every target that has the tier shares its set,
its price and its basis; the split still converts a USD budget per target (apps.tiering.budget).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

import numpy as np
from django.db import connection

from apps.core.pgcopy import fetch_arrays
from apps.snapshots.models import Segment
from apps.targets.models import Target
from apps.tiering import costmodel, payback, rules
from apps.tiering.budget import (
    EVICTED,
    GB,
    KEPT_NOT_REPAYING,
    MOVES_IN,
    MOVES_OUT,
    OUTCOMES,
    BudgetError,
    Capacity,
    Items,
    Split,
    TargetTerms,
    budget_split,
    usd_per_gb_month,
)
from apps.tiering.models import RecommendationRun, Tier
from apps.tiering.plans.models import Plan
from apps.tiering.plans.services import PlanMove, plan_create
from apps.tiering.plans.steps import PlanError, segment_label
from apps.tiering.tiers import tier_to_model

_CENT = Decimal("0.01")
_BIT = {code: 1 << rules.FINDING_CODES.index(code) for code in ("held_back", "partition_lifecycle")}
_MOVE = rules.ACTIONS.index(rules.ACTION_MOVE)
_NOT_MOVABLE = rules.ACTIONS.index(rules.ACTION_NOT_MOVABLE)

# The current rows of the targets that are on the tier, moving onto it, or whose figures are unknown: one scan
# of each current run by its key (run, segment).
_ROWS_SQL = """
SELECT run.target_id::int8, r.segment_id::int8, coalesce(r.size_bytes, -1)::int8, coalesce(r.iops, 'NaN')::float8,
       coalesce(r.current_tier_id = %(tier)s, false),
       coalesce(array_position(%(actions)s::text[], r.action::text) - 1, -1)::int2, r.findings::int8,
       coalesce(r.savings_usd, 0)::int8, coalesce(r.recommended_tier_id, -1)::int8, r.measured,
       (r.read_requests + r.write_requests = 0)
FROM tiering_recommendation r JOIN tiering_recommendationrun run ON run.id = r.run_id
WHERE run.state = %(current)s AND run.target_id = ANY(%(targets)s) AND r.folded_into_id IS NULL
  AND (r.current_tier_id = %(tier)s OR (r.recommended_tier_id = %(tier)s AND r.action = %(move)s)
       OR r.iops IS NULL OR r.size_bytes IS NULL)
"""
_ROW_COLUMNS = (("target_id", "int8"), ("segment_id", "int8"), ("size_bytes", "int8"), ("iops", "float8"),
                ("on_tier", "bool"), ("action", "int2"), ("findings", "int8"), ("savings_c", "int8"),
                ("recommended_tier_id", "int8"), ("measured", "bool"), ("idle", "bool"))


@dataclass(frozen=True)
class BudgetSegment:
    """One segment the budget moves or keeps against its recommendation, for the lists."""

    target: str
    segment_id: int
    label: str
    outcome: str  # budget.OUTCOMES
    size_gb: float
    to_tier: str
    value_usd_per_gb_month: float | None
    saving_usd_per_month: float


@dataclass(frozen=True)
class FleetBudget:
    """A budget's split (apps.tiering.budget.Split) with what it was made of.

    ``targets`` are in the split's order; ``left_out`` names the enabled targets whose tier set has no tier of
    that name. ``rows`` holds the items' arrays (segment_id, elsewhere tier id, value per month ...).
    """

    tier: Tier
    capacity: Capacity
    split: Split
    targets: tuple[Target, ...]
    left_out: tuple[str, ...]
    rows: dict[str, np.ndarray]
    usd_per_gb_month: float
    tier_names: dict[int, str]

    @property
    def source(self) -> str:
        """How a plan made from it says it was chosen."""
        return f"fleet budget {self.capacity.words} of {self.tier.name}"

    def segments(self, *, target_index: int | None = None, limit: int | None = None) -> list[BudgetSegment]:
        """The segments moved in, out or evicted, or kept because their move out would not repay (all
        targets, or one), the most valuable per GB first; ``limit`` per call."""
        outcome = self.split.outcome
        chosen = np.isin(outcome, (MOVES_IN, MOVES_OUT, EVICTED, KEPT_NOT_REPAYING))
        if target_index is not None:
            chosen &= self.rows["target"] == target_index
        index = np.flatnonzero(chosen)
        size = self.rows["size_bytes"][index]
        with np.errstate(divide="ignore", invalid="ignore"):
            per_gb = np.where(size > 0, self.rows["value"][index] / (size / GB), np.nan)
        index = index[np.argsort(-np.nan_to_num(per_gb, nan=-np.inf), kind="stable")][:limit]
        names = {seg["id"]: seg for seg in Segment.objects.filter(id__in=self.rows["segment_id"][index].tolist())
                 .values("id", "owner", "object_name", "subobject_name", "object_type", "container")}
        return [self._segment(int(i), names.get(int(self.rows["segment_id"][i]))) for i in index]

    def _segment(self, i: int, seg: dict[str, Any] | None) -> BudgetSegment:
        outcome = int(self.split.outcome[i])
        size = int(self.rows["size_bytes"][i])
        to_tier = self.tier.name if outcome == MOVES_IN else (
            self.tier_names.get(int(self.rows["elsewhere_tier_id"][i]), "") if outcome in (MOVES_OUT, EVICTED)
            else self.tier.name)
        label = (segment_label(seg["owner"], seg["object_name"], seg["subobject_name"], seg["object_type"],
                               seg["container"])
                 if seg else f"segment {int(self.rows['segment_id'][i])}")
        value = float(self.rows["value"][i])
        return BudgetSegment(
            target=self.targets[int(self.rows["target"][i])].name, segment_id=int(self.rows["segment_id"][i]),
            label=label, outcome=OUTCOMES[outcome], size_gb=size / GB, to_tier=to_tier,
            value_usd_per_gb_month=value / (size / GB) if size > 0 else None,
            saving_usd_per_month=float(self.rows["saving"][i]) if outcome in (MOVES_IN, MOVES_OUT, EVICTED) else 0.0,
        )


def budget_tier_names() -> list[str]:
    """The tiers a budget can be of: those of the tier sets of the enabled targets, by name."""
    sets = Target.objects.filter(enabled=True).values("tier_set_id")
    return list(Tier.objects.filter(tier_set_id__in=sets).order_by("name").values_list("name", flat=True))


def fleet_budget(*, tier_name: str, gb: float | None = None, usd_per_month: float | None = None) -> FleetBudget:
    """Split a budget of ``gb`` (or ``usd_per_month``) of tier ``tier_name`` across the enabled targets whose
    tier set has it (module docstring). Raises BudgetError (one line) for an unknown tier, a budget <= 0, or
    a tier no enabled target has."""
    capacity = Capacity(gb=gb, usd_per_month=usd_per_month)
    tier = Tier.objects.select_related("tier_set").filter(name=tier_name).first()
    if tier is None:
        known = ", ".join(budget_tier_names()) or "none"
        raise BudgetError(f"unknown tier {tier_name!r}; the enabled targets' tiers are: {known}")
    enabled = list(Target.objects.filter(enabled=True).order_by("name"))
    targets = tuple(t for t in enabled if t.tier_set_id == tier.tier_set_id)
    if not targets:
        raise BudgetError(f"no enabled target has tier {tier.name!r}: it is in set {tier.tier_set_id!r}, and "
                          f"the enabled targets compare {', '.join(sorted({t.tier_set_id for t in enabled})) or 'none'}")
    set_tiers = list(Tier.objects.filter(tier_set_id=tier.tier_set_id).order_by("pk"))
    basis = tier.tier_set.basis
    try:
        price = usd_per_gb_month(tier_to_model(tier).usd_per_gb, basis.divisor)
        for other in set_tiers:
            tier_to_model(other)
    except costmodel.CostModelError as exc:
        raise BudgetError(f"set {tier.tier_set_id!r} cannot be priced: {exc}") from None
    rows = _rows(targets, tier, set_tiers, basis.divisor)
    policy = payback.MovePolicy(dba_cost_usd=tier.tier_set.move_cost_usd,
                                horizon_months=tier.tier_set.payback_horizon_months,
                                min_saving_usd_per_month=tier.tier_set.min_saving_usd_per_month)
    items = Items(
        target=rows["target"], segment_id=rows["segment_id"], size_bytes=rows["size_bytes"], on_tier=rows["on_tier"],
        may_move=rows["may_move"], cost_on_tier=rows["cost_on_tier"], cost_elsewhere=rows["cost_elsewhere"],
        saving_if_moved=rows["saving"], move_cost_usd=np.full(rows["target"].size, float(policy.dba_cost_usd)),
    )
    split = budget_split(items, [TargetTerms(t.name, policy, price) for t in targets], capacity)
    return FleetBudget(tier=tier, capacity=capacity, split=split, targets=targets,
                       left_out=tuple(t.name for t in enabled if t.tier_set_id != tier.tier_set_id), rows=rows,
                       usd_per_gb_month=price, tier_names={t.pk: t.name for t in set_tiers})


def _rows(targets: tuple[Target, ...], tier: Tier, set_tiers: list[Tier], divisor: int) -> dict[str, np.ndarray]:
    """The candidates' arrays, ordered by target then segment id, with their costs per month."""
    params = {"tier": tier.pk, "actions": list(rules.ACTIONS), "current": RecommendationRun.State.CURRENT.value,
              "targets": [t.pk for t in targets], "move": rules.ACTION_MOVE}
    with connection.cursor() as cursor:
        raw = fetch_arrays(cursor.cursor, _ROWS_SQL, params, _ROW_COLUMNS)
    pks = np.array([t.pk for t in targets], dtype=np.int64)
    by_pk = np.argsort(pks)
    target = by_pk[np.searchsorted(pks[by_pk], raw["target_id"])]  # each row's index in ``targets``
    order = np.lexsort((raw["segment_id"], target))
    raw = {name: values[order] for name, values in raw.items()}
    target = target[order]
    known = (raw["size_bytes"] >= 0) & np.isfinite(raw["iops"]) & raw["measured"]
    on_tier, elsewhere, elsewhere_id = _costs(raw, known, tier, set_tiers, divisor)
    moves_rec = raw["action"] == _MOVE
    holds = ((raw["findings"] & _BIT["held_back"]) != 0) | (((raw["findings"] & _BIT["partition_lifecycle"]) != 0)
                                                           & raw["idle"])
    may_move = np.where(raw["on_tier"], (raw["action"] != _NOT_MOVABLE) & ~holds,
                        moves_rec & (raw["recommended_tier_id"] == tier.pk)) & known
    stored = raw["savings_c"] / 100.0 / divisor
    # A move the recommendation makes keeps its own stored saving (the figure its payback was judged on).
    saving = np.where(moves_rec, stored, on_tier - elsewhere)
    return {"target": target, "segment_id": raw["segment_id"], "size_bytes": raw["size_bytes"],
            "on_tier": raw["on_tier"], "may_move": may_move, "cost_on_tier": on_tier, "cost_elsewhere": elsewhere,
            "elsewhere_tier_id": elsewhere_id, "saving": saving, "value": elsewhere - on_tier}


def _costs(raw: dict[str, np.ndarray], known: np.ndarray, tier: Tier, set_tiers: list[Tier],
           divisor: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each known item's cost a month on the tier and on its best other tier of the set (NaN: unknown), and
    that tier's id (-1)."""
    n = raw["segment_id"].size
    on_tier, elsewhere = np.full(n, np.nan), np.full(n, np.nan)
    elsewhere_id = np.full(n, -1, dtype=np.int64)
    others = [t for t in set_tiers if t.pk != tier.pk]
    rows = np.flatnonzero(known)
    if not rows.size or not others:
        return on_tier, elsewhere, elsewhere_id
    models = [tier_to_model(t) for t in (tier, *others)]
    costs = costmodel.cost_matrix(models, raw["iops"][rows], raw["size_bytes"][rows] / GB, pooled=True) / divisor
    best = costs[:, 1:].argmin(axis=1)
    on_tier[rows] = costs[:, 0]
    elsewhere[rows] = costs[np.arange(rows.size), best + 1]
    elsewhere_id[rows] = np.array([t.pk for t in others], dtype=np.int64)[best]
    return on_tier, elsewhere, elsewhere_id


@dataclass(frozen=True)
class BudgetPlans:
    """The draft plans a budget implies, one per target with moves, and the targets none could be made for."""

    plans: tuple[Plan, ...]
    refused: tuple[tuple[str, str], ...]  # (target, why)


def fleet_budget_plans(*, budget: FleetBudget, author: Any, author_name: str,
                       now: dt.datetime | None = None) -> BudgetPlans:
    """A draft plan per target from the budget's moves (apps.tiering.plans.services.plan_create): its moves in
    and its moves out that save are the targets' current recommendations as they are; a move out the budget
    forces (the tier is the segment's cheapest, but it has no room) is carried to its best other tier with the
    budget's figures (plans.services.PlanMove). Its source says 'fleet budget N GB of TIER'."""
    plans, refused = [], []
    tier_rows = {t.pk: t for t in Tier.objects.filter(pk__in=list(budget.tier_names))}
    for index, target in enumerate(budget.targets):
        moves = _plan_moves(budget, index, tier_rows, target.tier_set.basis.divisor)
        if not moves:
            continue
        try:
            plans.append(plan_create(target=target, author=author, author_name=author_name, moves=moves,
                                     source=budget.source, now=now))
        except PlanError as exc:
            refused.append((target.name, str(exc)))
    return BudgetPlans(tuple(plans), tuple(refused))


def _plan_moves(budget: FleetBudget, index: int, tiers: dict[int, Tier], divisor: int) -> dict[int, PlanMove | None]:
    rows, outcome = budget.rows, budget.split.outcome
    mine = rows["target"] == index
    moves: dict[int, PlanMove | None] = {int(s): None for s in rows["segment_id"][mine & np.isin(outcome, (
        MOVES_IN, MOVES_OUT))].tolist()}
    evicted = np.flatnonzero(mine & (outcome == EVICTED))
    if not evicted.size:
        return moves
    dba_cost = budget.tier.tier_set.move_cost_usd
    throughput = {pk: np.nan if t.throughput_mb_s is None else t.throughput_mb_s for pk, t in tiers.items()}
    seconds = payback.move_seconds(
        rows["size_bytes"][evicted], np.full(evicted.size, throughput.get(budget.tier.pk, np.nan)),
        np.array([throughput.get(int(pk), np.nan) for pk in rows["elsewhere_tier_id"][evicted]]))
    for i, one_seconds in zip(evicted.tolist(), seconds.tolist()):
        saving = Decimal(repr(float(rows["saving"][i]) * divisor)).quantize(_CENT, ROUND_HALF_UP)
        moves[int(rows["segment_id"][i])] = PlanMove(
            tier=tiers[int(rows["elsewhere_tier_id"][i])], saving_usd=saving,
            move_seconds=None if np.isnan(one_seconds) else one_seconds,
            move_redo_bytes=int(rows["size_bytes"][i]), move_cost_usd=dba_cost, payback_days=None)
    return moves


__all__ = ["BudgetError", "BudgetPlans", "BudgetSegment", "FleetBudget", "budget_tier_names", "fleet_budget",
           "fleet_budget_plans"]
