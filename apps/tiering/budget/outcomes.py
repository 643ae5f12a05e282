"""What happens to each segment of a fleet budget (:data:`OUTCOMES`), and what that adds up to per target.

Pure: standard library and numpy only.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from apps.tiering.budget.split import Items, TargetTerms

#: Bytes in a GB (GiB, as the recommendations count ``size_gb``).
GB = 1024**3


class Outcome(IntEnum):
    """What happens to each item (:attr:`Split.outcome` holds these numbers)."""

    OFF = 0
    MOVES_IN = 1
    STAYS = 2
    KEPT = 3
    KEPT_NOT_REPAYING = 4
    MOVES_OUT = 5
    EVICTED = 6


#: Each outcome's word (in the fleet rows and the totals), indexed by its number.
OUTCOMES: tuple[str, ...] = tuple(outcome.name.lower() for outcome in Outcome)


@dataclass(frozen=True)
class TargetResult:
    """One target's share of the budget. GB are GiB; money USD per month (float), ``one_off_usd`` once."""

    name: str
    gb_now: float
    gb_after: float
    unknown_size_on_tier: int  # segments on the tier whose size is unknown: in neither GB figure
    unknown: int  # segments whose IOPS or size is unknown: never candidates
    moves_in: int
    moves_in_gb: float
    moves_out: int  # moves out that save (the tier is the dearer one for them)
    moves_out_gb: float
    evicted: int  # moves out the budget forces (the tier is their cheapest)
    evicted_gb: float
    kept: int  # on the tier, cannot leave
    kept_gb: float
    kept_not_repaying: int  # on the tier, a move out would not repay: kept and counted
    kept_not_repaying_gb: float
    saving_usd_per_month: float  # of the budget's moves, against today
    recommended_saving_usd_per_month: float  # of the per-target recommendations' moves to and from the tier
    one_off_usd: float = 0.0  # the one-off cost of the budget's moves (in, out and evicted)
    evicted_one_off_usd: float = 0.0  # of which its evictions'

    @property
    def vs_recommendations_usd_per_month(self) -> float:
        """The budget's saving - the recommendations' (<= 0: what the budget's limit costs)."""
        return self.saving_usd_per_month - self.recommended_saving_usd_per_month


def per_target(items: Items, terms: Sequence[TargetTerms], outcome: np.ndarray, known: np.ndarray,
               repays: np.ndarray, value: np.ndarray) -> tuple[TargetResult, ...]:
    """Each target's figures: counts, GB, savings and one-off costs by (target, outcome) in four bincounts (an
    item on the tier has one of the on-tier outcomes, so GB now is their sum), and two for the unknown."""
    count, kinds = len(terms), len(OUTCOMES)
    target = np.asarray(items.target, dtype=np.int64)
    size = np.asarray(items.size_bytes, dtype=np.int64)
    gb = np.maximum(size, 0) / GB
    saving = np.nan_to_num(np.asarray(items.saving_if_moved, dtype=np.float64))
    one_off = np.asarray(items.move_cost_usd, dtype=np.float64)
    key = target * kinds + outcome
    counts, sizes, savings = (np.bincount(key, weights=w, minlength=count * kinds).reshape(count, kinds)
                              for w in (None, gb, saving))
    # The one-off costs of the moves only (a few of the items): a bincount over all 10M took 0.1 s more.
    is_move = np.zeros(kinds, dtype=bool)
    is_move[[Outcome.MOVES_IN, Outcome.MOVES_OUT, Outcome.EVICTED]] = True
    moved = np.flatnonzero(is_move[outcome])
    costs = np.bincount(key[moved], weights=np.nan_to_num(one_off[moved]), minlength=count * kinds).reshape(count,
                                                                                                           kinds)
    unknown = np.bincount(target[~known], minlength=count)
    unsized = np.bincount(target[np.asarray(items.on_tier, dtype=bool) & (size < 0)], minlength=count)
    # The recommendations' moves to and from the tier: every allowed move in that repays, and every move out
    # that saves and repays (the items the split may move, unlimited).
    moves_in_allowed = ~np.asarray(items.on_tier, dtype=bool) & np.asarray(items.may_move, dtype=bool) & repays \
        & known & (value > 0)
    recommended = (np.bincount(target[moves_in_allowed], weights=saving[moves_in_allowed], minlength=count)
                   + savings[:, Outcome.MOVES_OUT])
    on_now = [Outcome.STAYS, Outcome.KEPT, Outcome.KEPT_NOT_REPAYING, Outcome.MOVES_OUT, Outcome.EVICTED]
    on_after = [Outcome.STAYS, Outcome.MOVES_IN, Outcome.KEPT, Outcome.KEPT_NOT_REPAYING]
    parts = {outcome.name.lower(): outcome for outcome in (Outcome.MOVES_IN, Outcome.MOVES_OUT, Outcome.EVICTED,
                                                           Outcome.KEPT, Outcome.KEPT_NOT_REPAYING)}
    moves = [Outcome.MOVES_IN, Outcome.MOVES_OUT, Outcome.EVICTED]

    def per_part(i: int) -> dict[str, Any]:  # TargetResult's keyword arguments named after ``parts``
        return {**{name: int(counts[i, code]) for name, code in parts.items()},
                **{f"{name}_gb": float(sizes[i, code]) for name, code in parts.items()}}

    return tuple(
        TargetResult(
            name=term.name, gb_now=float(sizes[i, on_now].sum()), gb_after=float(sizes[i, on_after].sum()),
            unknown_size_on_tier=int(unsized[i]), unknown=int(unknown[i]),
            **per_part(i),
            saving_usd_per_month=float(savings[i, moves].sum()),
            recommended_saving_usd_per_month=float(recommended[i]),
            one_off_usd=float(costs[i, moves].sum()), evicted_one_off_usd=float(costs[i, Outcome.EVICTED]),
        )
        for i, term in enumerate(terms)
    )
