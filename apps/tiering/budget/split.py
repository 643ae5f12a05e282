"""A fleet budget of one tier: N GB (or USD per month) of it split across targets and segments.

Pure: standard library and numpy only (no Django, no settings, no clock).
apps.tiering.budget.selectors reads the current recommendations of every target
into the arrays of :class:`Items`; :func:`budget_split` decides.

**The problem** is a 0/1 knapsack. Each segment that may sit on the tier is an
item: its *weight* is its size (or, for a budget in USD per month, its size at
the tier's price per GB per month in its target's billing basis), its *value*
is what having it on the tier saves a month against its best other tier of its
set (cost there - cost on the tier, USD per month; negative where the tier is
the dearer one). What the knapsack maximises is each item's *worth*
(apps.tiering.budget.worth): its value with the one-off cost of its move spread
over its set's payback horizon (less for a move in, more for a segment already
on the tier, whose move out would cost), and for a segment that holds a place
(on the tier now, or chosen by the previous budget run: ``Items.incumbent``)
counted ``1 + margin`` times, the set's hysteresis band.

**The method** is the greedy by ranked worth per unit of weight, over the whole fleet:

1. items that cannot leave the tier (not movable, IO not measured, a move back
   held by hysteresis, a move out that would not repay) are taken first: they
   occupy the tier whatever the budget says;
2. the others are sorted by ranked worth per weight, highest first (ties: segments on
   the tier now first, then those chosen by the previous run, then the input's order,
   target by target and segment by segment id, so the same input always gives the
   same split); items of value <= 0 are never taken;
3. each is taken if it fits in what is left; one that does not fit is skipped
   and the walk goes on with the smaller ones after it.

Why it is good enough: the knapsack's LP relaxation (items may be split) is
solved exactly by that order, taking every item until the first that does not
fit (the *critical* item) and a fraction of it. The greedy's prefix is that
solution without the fraction, and skipping-and-continuing only adds to it, so
the greedy is within one item's ranked worth of the LP bound, hence of the best
subset: ``greedy >= best - max worth``. With 10M segments of a fleet, each
under 0.01 % of the budget, that is nothing. The MILP of apps.tiering.optimizer
(PuLP/CBC) would be exact, but it takes 12.7 s for 10k segments of one target;
10M binaries do not fit in the 5 s this has (bench/budget.py: the greedy takes
a few seconds for 10M).

What happens to each item (:data:`OUTCOMES`): on the tier now and taken, it
stays; off it and taken, it moves in; on it and not taken, it moves to its
best other tier: *out* when the tier is the dearer one for it (a move that
saves, and must repay its one-off cost within its set's horizon like any move
that saves; one that would not is kept on the tier and counted against the
budget, as the per-target recommendation keeps it: ``kept_not_repaying``), or
*evicted* when the budget has no room for it although the tier is its cheapest
(it costs money a month, shown as a negative saving, and its one-off move; a
segment worth more takes its room, or the budget is below what the tier holds:
apps.tiering.budget.explain says which, per eviction). A segment whose IOPS or
size is unknown is never a candidate: never priced as 0; on the tier it stays
(its GB counted when known).

The marginal GB: the worth per GB of the first item the budget could not
hold, in the sorted order (the LP's shadow price of capacity: what one more GB
would earn, one-off costs spread over the horizon, without the margin); $0 when
every item worth having fits.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal

import numpy as np

from apps.tiering.budget.outcomes import (
    GB,
    OUTCOMES,
    Outcome,
    TargetResult,
    per_target,
)
from apps.tiering.budget.worth import ranked, spread_worth
from apps.tiering.moves.payback import MovePolicy, worth_moving

#: Weight unit of a USD budget: micro-USD per month, so that weights and capacity add exactly as integers.
MICRO_USD = 1_000_000
#: Rounds of the vectorised skip-and-continue before the rest is walked one by one (see _fill).
_VECTOR_ROUNDS = 64


class BudgetError(ValueError):
    """A budget that cannot be split as asked (no capacity, arrays of different lengths); one line."""


@dataclass(frozen=True)
class TargetTerms:
    """One target as the split reads it: its name, its set's terms for a move (payback), the tier's price
    per GB per month in its set's billing basis (a purchase amortised over its months, or monthly) and the
    margin a challenger must beat a segment holding a place by (its set's hysteresis band, a share >= 0)."""

    name: str
    policy: MovePolicy
    usd_per_gb_month: float
    margin: float = 0.0


@dataclass(frozen=True)
class Items:
    """The candidate segments, one element each, ordered by target index then segment id.

    ``target`` indexes the terms; ``size_bytes`` is -1 where unknown. Money per month (USD, float, NaN
    unknown): ``cost_on_tier`` on the budget's tier, ``cost_elsewhere`` on its best other tier of its set,
    ``saving_if_moved`` what its move would save (into the tier for a segment off it, out to its best other
    tier for one on it). ``move_cost_usd`` is its move's one-off cost (in for a segment off the tier, out for
    one on it). ``may_move``: off the tier, a move onto it is allowed (its recommendation moves it there:
    movable, measured, not held back, not vetoed); on the tier, it may leave (movable, measured, not held
    back, not kept for its table's partitions). ``incumbent``: the previous budget run of the tier chose it
    (None: no previous run).
    """

    target: np.ndarray
    segment_id: np.ndarray
    size_bytes: np.ndarray
    on_tier: np.ndarray
    may_move: np.ndarray
    cost_on_tier: np.ndarray
    cost_elsewhere: np.ndarray
    saving_if_moved: np.ndarray
    move_cost_usd: np.ndarray
    incumbent: np.ndarray | None = field(default=None)

    def __post_init__(self) -> None:
        if self.incumbent is None:
            object.__setattr__(self, "incumbent", np.zeros(np.shape(self.segment_id), dtype=bool))
        sizes = {name: np.shape(getattr(self, name)) for name in self.__dataclass_fields__}
        if len(set(sizes.values())) != 1 or len(next(iter(sizes.values()))) != 1:
            raise BudgetError(f"the item arrays must be 1-d and of one length, got {sizes}")

    def __len__(self) -> int:
        return int(np.shape(self.segment_id)[0])

    @property
    def value(self) -> np.ndarray:
        """Having it on the tier, per month: cost on its best other tier - cost on the tier (NaN unknown)."""
        return np.asarray(self.cost_elsewhere, dtype=np.float64) - np.asarray(self.cost_on_tier, dtype=np.float64)


@dataclass(frozen=True)
class Capacity:
    """The budget: ``gb`` of the tier, or ``usd_per_month`` of it at each target's price per GB per month."""

    gb: float | None = None
    usd_per_month: float | None = None

    def __post_init__(self) -> None:
        given = [x for x in (self.gb, self.usd_per_month) if x is not None]
        if len(given) != 1:
            raise BudgetError("give one budget: a number of GB, or of USD per month")
        if not (math.isfinite(given[0]) and given[0] > 0):
            raise BudgetError(f"a budget must be a number above 0, got {given[0]!r}")

    @property
    def words(self) -> str:
        """'500 GB' or '$1,200.00/month'."""
        return f"{self.gb:,g} GB" if self.gb is not None else f"${self.usd_per_month:,.2f}/month"


@dataclass(frozen=True)
class Split:
    """The budget's split: each item's outcome (an index into OUTCOMES), per-target results, fleet totals,
    the weight used (bytes, or micro-USD per month) and the marginal GB's value.

    For the explanations (apps.tiering.budget.explain): each item's ``weight``, its ``worth`` a month
    (apps.tiering.budget.worth: NaN unknown), whether it ``holds`` a place, and ``order``: the items that
    competed, in the greedy's order.
    """

    capacity: Capacity
    outcome: np.ndarray
    targets: tuple[TargetResult, ...]
    used_weight: int
    capacity_weight: int
    marginal_usd_per_gb_month: float  # the first item left out: what one more GB would earn
    last_taken_usd_per_gb_month: float | None  # the last item taken by worth (None: none)
    forced_over: bool  # what cannot leave the tier is more than the budget on its own
    weight: np.ndarray
    worth: np.ndarray
    holds: np.ndarray
    order: np.ndarray

    def total(self, field: str) -> float:
        """A per-target figure summed over the fleet."""
        total: float = sum(getattr(result, field) for result in self.targets)
        return total

    def indexes(self, *outcomes: int) -> np.ndarray:
        """The items whose outcome is one of ``outcomes``."""
        return np.flatnonzero(np.isin(self.outcome, outcomes))

    @property
    def left_weight(self) -> int:
        """What the budget leaves unused (weight units; 0 when what cannot leave is over it)."""
        return max(self.capacity_weight - self.used_weight, 0)


def budget_split(items: Items, terms: Sequence[TargetTerms], capacity: Capacity) -> Split:
    """Split ``capacity`` of the tier across ``items`` (module docstring: the greedy by ranked worth per weight)."""
    n = len(items)
    target = np.asarray(items.target, dtype=np.int64)
    if n and not (0 <= target.min() and target.max() < len(terms)):
        raise BudgetError(f"item targets must index the {len(terms)} targets' terms")
    size = np.asarray(items.size_bytes, dtype=np.int64)
    on_tier = np.asarray(items.on_tier, dtype=bool)
    value = items.value
    known = (size >= 0) & np.isfinite(value)
    weight, capacity_weight = _weights(size, target, terms, capacity)
    repays = _repays(items, terms, target)
    outcome = np.full(n, Outcome.OFF, dtype=np.int8)
    # On the tier and cannot leave: not movable, not measured, held; or a move out that saves but would not repay.
    may_leave = np.asarray(items.may_move, dtype=bool) & known
    outcome[on_tier & ~may_leave] = Outcome.KEPT
    not_repaying = on_tier & may_leave & (value <= 0) & ~repays
    outcome[not_repaying] = Outcome.KEPT_NOT_REPAYING
    forced = (outcome == Outcome.KEPT) | (outcome == Outcome.KEPT_NOT_REPAYING)
    left = capacity_weight - int(weight[forced & (size >= 0)].sum())
    # Competing for the rest: on the tier and free to leave, or off it with a move in allowed that repays.
    free = known & (value > 0) & np.where(on_tier, may_leave, np.asarray(items.may_move, dtype=bool) & repays)
    horizon, margin = _per_item(terms, target)
    place_worth = spread_worth(value, on_tier, np.asarray(items.move_cost_usd, dtype=np.float64), horizon)
    holds = on_tier | np.asarray(items.incumbent, dtype=bool)
    order = _by_value(np.flatnonzero(free), ranked(place_worth, holds, margin), weight, on_tier,
                      incumbent=holds)
    taken, first_left_out = _fill(order, weight, max(left, 0))
    chosen = np.zeros(n, dtype=bool)
    chosen[taken] = True
    outcome[chosen & on_tier] = Outcome.STAYS
    outcome[chosen & ~on_tier] = Outcome.MOVES_IN
    outcome[on_tier & may_leave & ~forced & ~chosen] = Outcome.EVICTED
    outcome[on_tier & may_leave & ~forced & (value <= 0)] = Outcome.MOVES_OUT
    return Split(
        capacity=capacity, outcome=outcome, targets=per_target(items, terms, outcome, known, repays, value),
        used_weight=int(weight[_on_after(outcome)].sum()),  # unknown sizes weigh 0
        capacity_weight=capacity_weight,
        marginal_usd_per_gb_month=_per_gb(place_worth, size, first_left_out) or 0.0,
        last_taken_usd_per_gb_month=_per_gb(place_worth, size, taken[-1] if len(taken) else None),
        forced_over=left < 0, weight=weight, worth=place_worth, holds=holds, order=order,
    )


def _per_item(terms: Sequence[TargetTerms], target: np.ndarray) -> tuple[np.ndarray | float, np.ndarray | float]:
    """Each item's payback horizon (months) and margin, from its target's terms: one number each when every
    target has the same (one tier set, the usual case), so that 10M items need no array of them."""
    return per_target_terms([float(t.policy.horizon_months) for t in terms], target), \
        per_target_terms([_margin(t.margin) for t in terms], target)


def per_target_terms(figures: list[float], target: np.ndarray) -> np.ndarray | float:
    """``figures[target]`` for each item, or the one figure when every target has the same."""
    if len(set(figures)) <= 1:
        return figures[0] if figures else 0.0
    per_item: np.ndarray = np.array(figures, dtype=np.float64)[target]
    return per_item


def _margin(margin: float) -> float:
    if not (math.isfinite(margin) and margin >= 0):
        raise BudgetError(f"a margin must be a share >= 0, got {margin!r}")
    return float(margin)


def _on_after(outcome: np.ndarray) -> np.ndarray:
    """Whether each item is on the tier under the budget (a lookup, not np.isin: 10M items)."""
    on = np.zeros(len(OUTCOMES), dtype=bool)
    on[[Outcome.STAYS, Outcome.MOVES_IN, Outcome.KEPT, Outcome.KEPT_NOT_REPAYING]] = True
    on_after: np.ndarray = on[outcome]
    return on_after


def _weights(size: np.ndarray, target: np.ndarray, terms: Sequence[TargetTerms],
             capacity: Capacity) -> tuple[np.ndarray, int]:
    """Each item's weight and the capacity, in bytes (a GB budget) or micro-USD per month (a USD budget: the
    size at its target's price per GB per month); integers, so that they add exactly."""
    known_size = np.maximum(size, 0)
    if capacity.gb is not None:
        return known_size, int(capacity.gb * GB)
    prices = np.array([t.usd_per_gb_month for t in terms], dtype=np.float64)
    if not np.all(np.isfinite(prices) & (prices > 0)):
        raise BudgetError("a budget in USD needs the tier's price per GB per month of every target")
    per_byte = prices[target] * MICRO_USD / GB if target.size else np.zeros(0)
    assert capacity.usd_per_month is not None  # Capacity holds one budget: USD when not GB
    return np.round(known_size * per_byte).astype(np.int64), int(capacity.usd_per_month * MICRO_USD)


def _repays(items: Items, terms: Sequence[TargetTerms], target: np.ndarray) -> np.ndarray:
    """Whether each item's move (in, or out) saves at least its set's minimum and repays its one-off cost
    within its set's horizon (apps.tiering.moves.payback.worth_moving, per target's terms)."""
    repays = np.zeros(len(items), dtype=bool)
    saving = np.asarray(items.saving_if_moved, dtype=np.float64)
    cost = np.asarray(items.move_cost_usd, dtype=np.float64)
    # One pass per distinct policy (a fleet has a few tier sets), not per target: 100 passes over 10M items
    # took a second.
    policies = sorted({term.policy for term in terms}, key=repr)
    policy_of_target = np.array([policies.index(term.policy) for term in terms], dtype=np.int64)
    policy = policy_of_target[target] if target.size else target
    for index, one in enumerate(policies):
        rows = policy == index if len(policies) > 1 else slice(None)
        repays[rows] = worth_moving(cost[rows], saving[rows], one)
    return repays


def _by_value(free: np.ndarray, value: np.ndarray, weight: np.ndarray, on_tier: np.ndarray,
              incumbent: np.ndarray | None = None) -> np.ndarray:
    """``free`` items by value per weight, highest first; ties: on the tier first, then the ``incumbent``
    ones (those that hold a place), then the input order."""
    # The input order, with the items on the tier first: a stable sort on the ratio keeps it among ties.
    parts = [free[on_tier[free]]]
    rest = free[~on_tier[free]]
    if incumbent is not None:
        parts.append(rest[incumbent[rest]])
        rest = rest[~incumbent[rest]]
    ahead = np.concatenate([*parts, rest])
    with np.errstate(divide="ignore"):
        key = -(value[ahead] / weight[ahead])  # weight 0 and value > 0: -inf, taken first
    # Quicksort (4x faster than a stable sort on 5M floats here), then the ties, rare in real figures, put back
    # in the input order: what a stable sort gives.
    order = np.argsort(key, kind="quicksort")
    ranked = key[order]
    tied = np.zeros(order.size, dtype=bool)
    same = ranked[1:] == ranked[:-1]
    tied[1:] |= same
    tied[:-1] |= same
    if tied.any():
        at = np.flatnonzero(tied)
        run = np.cumsum(np.r_[True, ~same])[at]  # which run of equal keys each tied item is in
        order[at] = order[at][np.lexsort((order[at], run))]
    return ahead[order]


def _fill(order: np.ndarray, weight: np.ndarray, left: int) -> tuple[np.ndarray, int | None]:
    """The items of ``order`` taken by the skip-and-continue walk within ``left``, in walk order, and the
    first item of ``order`` not taken (None: all taken).

    Vectorised: the longest prefix that fits is taken at once (a cumulative sum); the item after it does
    not fit and is skipped, and so is every later item heavier than what is left; then again on the rest.
    Each round only shrinks what is left, and ends when the rest fits or nothing is left; after
    _VECTOR_ROUNDS rounds the rest is walked one item at a time.
    """
    parts: list[np.ndarray] = []
    rest = order
    for _ in range(_VECTOR_ROUNDS):
        rest = rest[weight[rest] <= left]
        sums = np.cumsum(weight[rest])
        fit = int(np.searchsorted(sums, left, side="right"))
        parts.append(rest[:fit])
        if fit == rest.size:
            rest = rest[:0]
            break
        left -= int(sums[fit - 1]) if fit else 0
        rest = rest[fit + 1:]
    walked = []
    for index, item_weight in zip(rest.tolist(), weight[rest].tolist()):
        if item_weight <= left:
            walked.append(index)
            left -= item_weight
    parts.append(np.array(walked, dtype=np.int64))
    taken = np.concatenate(parts).astype(np.int64)
    is_taken = np.zeros(weight.size, dtype=bool)
    is_taken[taken] = True
    left_out = order[~is_taken[order]]
    return taken, int(left_out[0]) if left_out.size else None


def _per_gb(value: np.ndarray, size: np.ndarray, index: int | None) -> float | None:
    """An item's value per GB per month (None: no item, or of size 0)."""
    if index is None or size[index] <= 0:
        return None
    return float(value[index] / (size[index] / GB))


def usd_per_gb_month(usd_per_gb: Decimal, divisor: int) -> float:
    """The tier's price per GB per month in a set's basis: its price per GB (a purchase or monthly) over the
    basis's divisor (costmodel.BillingBasis.divisor: the amortisation months of a purchase, 1 for monthly).

    >>> usd_per_gb_month(Decimal(30), 60), usd_per_gb_month(Decimal("0.08"), 1)
    (0.5, 0.08)
    """
    return float(Decimal(usd_per_gb) / divisor)
