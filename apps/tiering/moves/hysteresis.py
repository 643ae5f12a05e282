"""Hysteresis: a segment is not sent back to a tier it left, or was advised to leave, on a marginal or passing change.

Pure: standard library and numpy (and the cost model's break-evens); the refresh
(apps.tiering.recommendations.services) reads the history, apps.tiering.recommendations.decision applies the
verdict, the rules (rules.decide) keep a held segment on its tier and say why.

The rule (issue 16, item 2). Today the cost model sends a segment from its
current tier C to a tier T. Among the target's earlier runs (one per earlier UTC
day, ``RecommendationRun`` history) of the last ``max(MEMORY_DAYS, days)`` days (a week):

* *a tier it left*: a run in which the segment was on T (its current tier then);
* *a tier it was advised to leave*: a run recommended T and a later run
  recommended another tier (the advice went to T and away again). Advice that
  has stayed on T since it first said T is not a move back: it is the same move,
  not yet made;
* or a run held a move from C back to T (its finding "held_back"): the memory
  of a tier it left lasts while the moves back keep being held, not only the
  ``max(MEMORY_DAYS, days)`` days the runs are read for (a week by default).

A move to such a tier is a *move back*, made only when both hold:

* **band**: the segment's intensity crosses the break-even between C and T
  (costmodel.break_even_intensity, the figure the tiers page shows) by the
  tier set's ``hysteresis_band``: at least (1 + band) x break-even to go up to
  the tier of higher tier intensity (cheaper IOPS), at most (1 - band) x
  break-even to go down. A pair without a break-even (one tier cheaper on both
  GB and IOPS) has nothing to cross: the band holds. An unknown intensity never
  crosses it;
* **days**: the cost model has sent it from C to T in today's run and in the
  runs of the days just before, unbroken, for at least ``hysteresis_days`` days
  of runs (today counts as one). A day without a refresh neither counts nor breaks
  the streak; a run in which the segment had no row, was elsewhere, or was sent
  elsewhere breaks it.

Otherwise it is held on C (rules finding "held_back"). A segment whose current
tier is unknown (unmapped) has no tier to come back from and is not judged. The
streak counts the cost model's advice, before the seed rules and this rule,
because a held move is stored as "keep" (its recommended tier is C).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from apps.tiering.costmodel import CostModelError, Tier, break_even_intensity

#: How far back the earlier runs are read (days; the tier set's hysteresis_days when more): a week, the default
#: days a move back must be advised. A held move back keeps the tier it left in memory for as long as it is
#: held (see judge), so a segment oscillating for months does not bounce once its week has passed. Reading
#: a run's rows of the segments sent elsewhere costs a primary-key probe and a heap fetch each (measured on
#: runs of 100k rows: 0.06 s for 1,000 segments and 0.25 s for 10,000 over 7 runs; 0.4 s and 1 s over 30).
MEMORY_DAYS = 7


@dataclass(frozen=True)
class Settings:
    """A tier set's hysteresis: the share past the break-even a move back needs, and its days of advice."""

    band: float = 0.25
    days: int = 7

    def __post_init__(self) -> None:
        if not (self.band >= 0 and math.isfinite(self.band)):
            raise ValueError(f"hysteresis band must be a finite share >= 0, got {self.band!r}")
        if self.days < 0:
            raise ValueError(f"hysteresis days must be >= 0, got {self.days!r}")

    @property
    def memory_days(self) -> int:
        return max(MEMORY_DAYS, self.days)


@dataclass(frozen=True)
class History:
    """Earlier runs' rows of some segments, one element per (segment, run).

    ``age`` numbers the runs from the latest earlier one (1) back; tier ids are -1
    where NULL (unmapped). The dtypes are those apps.tiering.recommendations.services.advice_history reads.
    """

    segment_id: npt.NDArray[np.int64]
    age: npt.NDArray[np.int64]
    current_tier_id: npt.NDArray[np.int64]
    cost_tier_id: npt.NDArray[np.int64]
    recommended_tier_id: npt.NDArray[np.int64]
    held_back: npt.NDArray[np.bool_]  # the run held a move back (rules finding "held_back")

    @classmethod
    def empty(cls) -> History:
        def ids() -> npt.NDArray[np.int64]:
            return np.zeros(0, dtype=np.int64)

        return cls(ids(), ids(), ids(), ids(), ids(), np.zeros(0, dtype=bool))

    def __len__(self) -> int:
        return int(self.segment_id.size)


class Verdict(NamedTuple):
    """Per segment: ``back`` the cost model's move is a move back; ``band_ok`` its intensity crosses the
    break-even by the band; ``days_advised`` days of runs it has been advised (today included; 0 where not a
    move back); ``held`` a move back that is not made."""

    back: np.ndarray
    band_ok: np.ndarray
    days_advised: np.ndarray
    held: np.ndarray


class HeldBack(NamedTuple):
    """Why one move back is held, as its words need it: how far its intensity lies past the break-even (a
    share, None: no break-even or unknown), the tier set's settings and the days the move has been advised."""

    share: float | None
    settings: Settings
    days_advised: int


def judge(*, segment_id: np.ndarray, current_tier_id: np.ndarray, cost_tier_id: np.ndarray,
          intensity: np.ndarray, tiers: Mapping[int, Tier], history: History, settings: Settings) -> Verdict:
    """The hysteresis verdict on every segment (``segment_id`` sorted) whose cost model's tier is not its
    current one; ``tiers`` maps tier ids to cost model tiers (segments on or sent to others are not judged)."""
    n = segment_id.size
    back = np.zeros(n, dtype=bool)
    days_advised = np.zeros(n, dtype=np.int64)
    band_ok = np.zeros(n, dtype=bool)
    ids = np.fromiter(tiers, dtype=np.int64, count=len(tiers))
    moves = np.isin(current_tier_id, ids) & np.isin(cost_tier_id, ids) & (cost_tier_id != current_tier_id)
    if not moves.any() or not len(history):
        return Verdict(back, band_ok, days_advised, back.copy())
    # The segments sent elsewhere today, and each history row of theirs.
    rows = np.flatnonzero(moves)
    position = np.minimum(np.searchsorted(segment_id[rows], history.segment_id), rows.size - 1)
    mine = segment_id[rows][position] == history.segment_id
    at, age = position[mine], history.age[mine]
    current, cost, advised = (history.current_tier_id[mine], history.cost_tier_id[mine],
                              history.recommended_tier_id[mine])
    to, here = cost_tier_id[rows][at], current_tier_id[rows][at]
    same = (current == here) & (cost == to)  # the same move advised (C -> T)
    # A tier it left: it was on T, or the same move back was held.
    is_back = np.zeros(rows.size, dtype=bool)
    is_back[at[(current == to) | (same & history.held_back[mine])]] = True
    # A tier it was advised to leave: a run advised T and a later (younger) run advised elsewhere.
    oldest_to = np.zeros(rows.size, dtype=np.int64)
    np.maximum.at(oldest_to, at[advised == to], age[advised == to])
    youngest_elsewhere = np.full(rows.size, np.iinfo(np.int64).max)
    np.minimum.at(youngest_elsewhere, at[advised != to], age[advised != to])
    is_back |= youngest_elsewhere < oldest_to
    # Days of runs advising the same move (C -> T), from today back, unbroken; column 0 is today.
    advising = np.zeros((rows.size, int(age.max(initial=0)) + 2), dtype=bool)
    advising[:, 0] = True
    advising[at[same], age[same]] = True
    back[rows] = is_back
    days_advised[rows] = np.where(is_back, np.argmin(advising, axis=1), 0)
    band_ok[rows] = is_back & _crosses_band(current_tier_id[rows], cost_tier_id[rows], intensity[rows], tiers,
                                            settings.band)
    held = back & ~(band_ok & (days_advised >= settings.days))
    return Verdict(back, band_ok, days_advised, held)


def crossed_share(intensity: float | None, here: Tier, there: Tier) -> float | None:
    """How far ``intensity`` lies past the break-even between ``here`` and ``there`` in the direction of
    ``there``, as a share of the break-even (0.22: 22 % past it; negative: short of it); None when the pair
    has no break-even or the intensity is unknown.

    >>> from decimal import Decimal
    >>> from apps.tiering.costmodel import DeviceTier
    >>> fast = DeviceTier(name="fast", device_cost_usd=Decimal(600), device_gb=300, device_iops=300)
    >>> hicap = DeviceTier(name="hi-cap", device_cost_usd=Decimal(250), device_gb=1000, device_iops=100)
    >>> round(crossed_share(0.9, hicap, fast), 3), round(crossed_share(0.7, fast, hicap), 3)
    (0.125, 0.125)
    """
    if intensity is None or not math.isfinite(intensity):
        return None
    even = _break_even(here, there)
    if even is None:
        return None
    value, up = even
    return intensity / value - 1.0 if up else 1.0 - intensity / value


def _break_even(here: Tier, there: Tier) -> tuple[float, bool] | None:
    """(break-even intensity between the two tiers, whether ``there`` is the upper one); None: no break-even."""
    try:
        up = there.intensity > here.intensity
        even = break_even_intensity(here, there) if up else break_even_intensity(there, here)
    except (CostModelError, ArithmeticError):
        return None
    return (even, up) if even is not None and even > 0 else None


def _crosses_band(here: np.ndarray, there: np.ndarray, intensity: np.ndarray, tiers: Mapping[int, Tier],
                  band: float) -> np.ndarray:
    """Whether each intensity crosses the break-even between its two tiers by ``band`` (a few tier pairs).
    A pair without a break-even has nothing to cross; an unknown intensity never crosses."""
    ok = np.zeros(here.size, dtype=bool)
    known = np.isfinite(intensity)
    for pair in set(zip(here.tolist(), there.tolist())):
        rows = (here == pair[0]) & (there == pair[1]) & known
        even = _break_even(tiers[pair[0]], tiers[pair[1]])
        if even is None:
            ok[rows] = True
            continue
        value, up = even
        share = intensity[rows] / value - 1.0 if up else 1.0 - intensity[rows] / value
        ok[rows] = share >= band - 1e-9
    return ok


def why_held(*, current_tier: str, recommended_tier: str, held: HeldBack) -> str:
    """The sentence of a held move back: 'Held on X: ...' with what it lacks (the band, the days or both).

    >>> why_held(current_tier="fast disk", recommended_tier="hi-cap disk",
    ...          held=HeldBack(0.125, Settings(), 3))  # doctest: +NORMALIZE_WHITESPACE
    'Held on fast disk: hi-cap disk is a tier it left or was advised to leave, and a move back needs its
    intensity 25% past the break-even and the advice held 7 days; its intensity crossed the break-even by
    only 12% (needs 25%), and it was advised back only 3 of 7 days.'
    """
    band, days = held.settings.band, held.settings.days
    lacks = []
    if held.share is not None and held.share < band - 1e-9:
        crossed = f"by only {held.share * 100:.0f}%" if held.share > 0 else "not at all"
        lacks.append(f"its intensity crossed the break-even {crossed} (needs {band * 100:.0f}%)")
    if held.days_advised < days:
        lacks.append(f"it was advised back only {held.days_advised} of {days} days")
    if not lacks:  # prices or settings changed since the refresh
        lacks.append("it did not meet them when this recommendation was computed")
    return (f"Held on {current_tier}: {recommended_tier} is a tier it left or was advised to leave, and a move "
            f"back needs its intensity {band * 100:.0f}% past the break-even and the advice held {days} days; "
            f"{', and '.join(lacks)}.")
