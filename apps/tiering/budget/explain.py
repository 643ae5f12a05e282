"""Why a budget's split is what it is: what each eviction costs against what its replacement earns, and why
each segment holding a place (on the tier now, or chosen by the previous budget run) keeps it.

Pure: standard library and numpy only; it reads a :class:`~apps.tiering.budget.split.Split` and its items.

**Evictions.** The greedy walks the competing segments by ranked worth per unit of the tier
(apps.tiering.budget.split). The room an evicted segment E had goes to the segments moving in *ahead of it* in
that order, first come first served: the first eviction in the order takes the room of the first moves in,
and so on (:func:`evictions`). Every segment ahead of E is worth more per unit than E with its margin, E being
on the tier, so on the room it takes, a replacement R earns over the horizon H more than E loses:
``(value_R x H - cost_R) x share > value_E x H + cost_E`` per unit of the tier, R's one-off cost counted for
the share of its room that was E's. Room of E that no move in ahead of it takes was not given to a segment
worth more: the budget is below what the tier holds, or E did not fit whole in what was left.

**Kept places** (:func:`kept`). For a segment P holding a place and taken, its *challenger* is the segment left
out with the most worth per unit that would fit in P's room and what is left of the budget. P keeps its place
because (:data:`KEPT_REASONS`):

* ``room``: no segment left out would fit in its place (or none is left out);
* ``ahead``: its value per unit (a month, before one-off costs) is at least its challenger's;
* ``one_off``: the challenger's value per unit is more, but not once both moves' one-off costs are spread
  over the horizon: the exchange would not repay;
* ``margin``: the challenger is worth more even then, but by less than the margin a challenger needs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from apps.tiering.budget.outcomes import Outcome
from apps.tiering.budget.split import Items, Split, TargetTerms, per_target_terms

#: Why a segment holding a place keeps it (module docstring).
KEPT_REASONS: tuple[str, ...] = ("room", "ahead", "one_off", "margin")
ROOM, AHEAD, ONE_OFF, MARGIN = range(len(KEPT_REASONS))


@dataclass(frozen=True)
class Evictions:
    """The evicted segments, in the greedy's order, one element each.

    ``loses_usd_per_month`` its value on the tier; ``cost_usd`` its move's one-off cost; ``horizon_months``
    its set's payback horizon. ``replaced_weight`` how much of its weight went to segments moving in ahead of
    it (0: none); ``replacement`` the first of them (an item index, -1: none) and ``replacements`` how many;
    ``replacement_earns_usd`` what they earn over the horizon on that room, net of their one-off costs, each
    for the share of its room that was this one's.
    """

    index: np.ndarray
    weight: np.ndarray
    loses_usd_per_month: np.ndarray
    cost_usd: np.ndarray
    horizon_months: np.ndarray
    replaced_weight: np.ndarray
    replacement: np.ndarray
    replacements: np.ndarray
    replacement_earns_usd: np.ndarray

    @property
    def loses_usd(self) -> np.ndarray:
        """What each eviction costs over the horizon: its value a month for the horizon, and its move."""
        loses: np.ndarray = self.loses_usd_per_month * self.horizon_months + self.cost_usd
        return loses


def evictions(items: Items, terms: Sequence[TargetTerms], split: Split) -> Evictions:
    """Each eviction with the moves in that take its room (module docstring), vectorised: a running minimum
    gives the room each eviction hands over (first come, first served), the cumulative room and earnings of
    the moves in give whose room it is and what it earns."""
    order, weight = split.order, split.weight
    outcome = split.outcome[order]
    horizon = _horizon(items, terms)
    cost = np.nan_to_num(np.asarray(items.move_cost_usd, dtype=np.float64))
    supply = (outcome == Outcome.MOVES_IN) & (weight[order] > 0)
    given = np.cumsum(np.where(supply, weight[order], 0))  # the room moved in, up to each position
    at = np.flatnonzero(outcome == Outcome.EVICTED)
    evicted = order[at]
    demand = np.cumsum(weight[evicted])
    # Handed over up to eviction k: A_k = min(A_(k-1) + w_k, given_k), i.e. D_k + min(0, min_(j<=k) (given_j - D_j)).
    handed = demand + np.minimum(0, np.minimum.accumulate(given[at] - demand)) if at.size else demand
    before = np.concatenate([[0], handed[:-1]])[:handed.size].astype(np.int64)
    incoming = order[supply]
    room_in = np.cumsum(weight[incoming])
    value = items.value
    earned = np.cumsum(value[incoming] * horizon[incoming] - cost[incoming])
    first = np.searchsorted(room_in, before, side="right")
    last = np.searchsorted(room_in, handed, side="left")
    replaced = handed - before
    return Evictions(
        index=evicted, weight=weight[evicted], loses_usd_per_month=value[evicted], cost_usd=cost[evicted],
        horizon_months=horizon[evicted], replaced_weight=replaced,
        replacement=np.where(replaced > 0, incoming[np.minimum(first, max(incoming.size - 1, 0))]
                             if incoming.size else -1, -1),
        replacements=np.where(replaced > 0, last - first + 1, 0),
        replacement_earns_usd=_earned(room_in, earned, handed) - _earned(room_in, earned, before),
    )


def _earned(room: np.ndarray, earned: np.ndarray, at: np.ndarray) -> np.ndarray:
    """What the moves in earn on the first ``at`` units of their room (piecewise linear in their order)."""
    if not room.size:
        return np.zeros(at.shape)
    i = np.minimum(np.searchsorted(room, at, side="right"), room.size - 1)
    start = np.where(i > 0, room[i - 1], 0)
    before = np.where(i > 0, earned[i - 1], 0.0)
    width = room[i] - start
    share = np.divide(at - start, width, out=np.zeros(at.shape), where=width > 0)
    at_earned: np.ndarray = before + np.clip(share, 0.0, 1.0) * (earned[i] - before)
    return at_earned


@dataclass(frozen=True)
class Kept:
    """The segments holding a place that the split keeps (stays, or moves in), one element each: ``reason``
    indexes KEPT_REASONS; ``challenger`` is the best segment left out that would fit in its place (an item
    index, -1: none)."""

    index: np.ndarray
    reason: np.ndarray
    challenger: np.ndarray


def kept(items: Items, split: Split) -> Kept:
    """Why each segment holding a place keeps it (module docstring)."""
    outcome, weight, worth = split.outcome, split.weight, split.worth
    index = np.flatnonzero(split.holds & np.isin(outcome, (Outcome.STAYS, Outcome.MOVES_IN)))
    left_out = split.order[~np.isin(outcome[split.order], (Outcome.STAYS, Outcome.MOVES_IN))]
    challenger = np.full(index.size, -1, dtype=np.int64)
    if left_out.size and index.size:
        by_weight = left_out[np.argsort(weight[left_out], kind="stable")]
        ratio = _per_unit(worth[by_weight], weight[by_weight])
        best = np.maximum.accumulate(ratio)
        best_at = np.maximum.accumulate(np.where(ratio >= best, np.arange(ratio.size), 0))
        fits = np.searchsorted(weight[by_weight], weight[index] + split.left_weight, side="right") - 1
        challenger = np.where(fits >= 0, by_weight[best_at[np.maximum(fits, 0)]], -1)
    reason = np.full(index.size, ROOM, dtype=np.int8)
    has = challenger >= 0
    value = items.value
    mine, theirs = index[has], challenger[has]
    ahead = _per_unit(value[mine], weight[mine]) >= _per_unit(value[theirs], weight[theirs])
    repays = _per_unit(worth[mine], weight[mine]) >= _per_unit(worth[theirs], weight[theirs])
    reason[has] = np.where(ahead, AHEAD, np.where(repays, ONE_OFF, MARGIN))
    return Kept(index=index, reason=reason, challenger=challenger)


def _per_unit(amount: np.ndarray, weight: np.ndarray) -> np.ndarray:
    """Amounts per unit of weight (inf for a weight of 0 and an amount above 0)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(weight > 0, amount / np.maximum(weight, 1), np.where(amount > 0, np.inf, 0.0))


def _horizon(items: Items, terms: Sequence[TargetTerms]) -> np.ndarray:
    months = per_target_terms([float(t.policy.horizon_months) for t in terms], np.asarray(items.target, dtype=np.int64))
    return np.broadcast_to(np.asarray(months, dtype=np.float64), np.shape(items.target))


def lost(items: Items, split: Split) -> tuple[int, int]:
    """The segments the previous run chose, off the tier now, that this split leaves off: (beaten by segments
    worth more by the margin, no longer candidates: their recommendation no longer moves them onto the tier,
    or their figures are unknown)."""
    incumbent = np.asarray(items.incumbent, dtype=bool) & ~np.asarray(items.on_tier, dtype=bool)
    competed = np.zeros(split.outcome.size, dtype=bool)
    competed[split.order] = True
    left = incumbent & (split.outcome != Outcome.MOVES_IN)
    return int((left & competed).sum()), int((left & ~competed).sum())
