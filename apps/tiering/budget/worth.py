"""What a place on the budget's tier is worth once the one-off cost of moving is counted, and the margin a
segment that holds a place has over a challenger.

Pure: standard library and numpy only.

**Worth.** A segment's *value* on the tier is what having it there saves a month against its best other
tier of its set (cost there - cost on the tier). A place is not free to change: a move in costs its one-off
cost (apps.tiering.moves.payback: the set's DBA cost per move; the IO is $0), and so does a move out. Over the set's
payback horizon H (months), a segment off the tier that moves in earns ``value x H - move cost``; one on the
tier that stays avoids losing ``value x H`` and its move out. Spread over the horizon, per month:

* off the tier: ``worth = value - cost / H``;
* on the tier: ``worth = value + cost / H``.

A knapsack over these worths evicts a segment E for a replacement R only when R's worth per unit of
the tier exceeds E's, i.e. (for one GB of each) when ``value_R x H > value_E x H + cost_E + cost_R``: the
replacement's saving over the horizon exceeds the evicted segment's lost saving plus both moves' one-off
costs. A set whose horizon is 0 makes no move that costs anything (no such move repays: payback.worth_moving),
so its worth is its value (nothing is spread).

**Margin.** A segment *holds a place* when it is on the tier now or the previous budget run of the tier
chose it (apps.tiering.budget.models.BudgetRun). In the ranking its worth counts ``1 + margin`` times (the
tier set's ``hysteresis_band``, 25 % by default: the share past the break-even a move back needs in the
recommendations' hysteresis), so a challenger takes its place only when worth more per unit of the tier by
that margin. A bonus in the objective, not a constraint: the knapsack maximises the sum of the ranked worths,
and that is exactly "keep the places unless beaten by the margin" for every exchange of equal size, where a
constraint could only forbid or force a place. Every segment on the tier holds a place, so when two place
holders meet (one on the tier now, one chosen before and not moved yet) their margins cancel and the money
alone decides: the margin never pays for an eviction that does not repay.
"""

from __future__ import annotations

import numpy as np


def spread(cost_usd: np.ndarray, horizon_months: np.ndarray | float) -> np.ndarray | float:
    """One-off costs spread over the horizon, USD a month; 0 where the horizon is 0 (module docstring). A
    horizon the same for every segment (one tier set) may be a number: no array of 10M copies of it.

    >>> spread(np.array([90.0, 90.0, 0.0]), np.array([3.0, 0.0, 3.0])).tolist()
    [30.0, 0.0, 0.0]
    >>> spread(np.zeros(3), 3.0)
    0.0
    """
    cost = np.asarray(cost_usd, dtype=np.float64)
    if np.isnan(cost).any():  # an unknown cost spreads nothing (payback knows every move's)
        cost = np.nan_to_num(cost)
    if np.ndim(horizon_months) == 0:
        horizon = float(horizon_months)
        return cost / horizon if horizon > 0 and cost.any() else 0.0
    horizons = np.asarray(horizon_months, dtype=np.float64)
    out = np.zeros(np.broadcast(cost, horizons).shape)
    np.divide(cost, horizons, out=out, where=np.broadcast_to(horizons > 0, out.shape))
    return out


def spread_worth(value: np.ndarray, on_tier: np.ndarray, cost_usd: np.ndarray,
                 horizon_months: np.ndarray | float) -> np.ndarray:
    """Each segment's worth on the tier a month with its move spread over the horizon (module docstring);
    NaN where its value is unknown.

    >>> spread_worth(np.array([10.0, 10.0]), np.array([False, True]), np.array([30.0, 30.0]), 3.0).tolist()
    [0.0, 20.0]
    """
    per_month = spread(cost_usd, horizon_months)
    if np.ndim(per_month) == 0 and per_month == 0:
        return np.asarray(value, dtype=np.float64)
    return np.where(np.asarray(on_tier, dtype=bool), value + per_month, value - per_month)


def ranked(worth_usd: np.ndarray, holds: np.ndarray, margin: np.ndarray | float) -> np.ndarray:
    """The worths as the greedy ranks them: a place holder's positive worth counts ``1 + margin`` times.

    >>> ranked(np.array([10.0, 10.0, -4.0]), np.array([True, False, True]), 0.25).tolist()
    [12.5, 10.0, -4.0]
    """
    if np.ndim(margin) == 0 and margin == 0:
        return worth_usd
    bonus = np.where(np.asarray(holds, dtype=bool) & (worth_usd > 0), 1.0 + np.asarray(margin, dtype=np.float64), 1.0)
    return worth_usd * bonus
