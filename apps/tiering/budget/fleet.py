"""A fleet budget as the pages, the command and the plans read it: the split with what it was made of, the
segments it moves, each eviction's cost against what its replacement earns, and why each segment holding a
place keeps it (apps.tiering.budget.explain), named and worded.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np

from apps.snapshots.models import Segment
from apps.targets.models import Target
from apps.tiering.budget import explain
from apps.tiering.budget.explain import KEPT_REASONS
from apps.tiering.budget.models import BudgetRun
from apps.tiering.budget.outcomes import GB, OUTCOMES, Outcome
from apps.tiering.budget.split import Capacity, Items, Split, TargetTerms
from apps.tiering.models import Tier
from apps.tiering.plans.steps import segment_label


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
class BudgetEviction:
    """One eviction: what it costs (its value a month on the tier, its move once, both over the horizon) and
    what the segments moving in ahead of it earn on its room over the horizon, after their moves (their
    one-off costs for the share of their room that was its). ``replacement`` names the first of them ("":
    none); ``replaced_gb`` is how much of its room they take."""

    target: str
    segment_id: int
    label: str
    size_gb: float
    to_tier: str
    tier: str
    loses_usd_per_month: float
    cost_usd: float
    horizon_months: float
    loses_usd: float
    replaced_gb: float
    replacement: str
    replacements: int
    replacement_earns_usd: float

    @property
    def words(self) -> str:
        """The eviction in one sentence (a plan step's comment, the command's line)."""
        said = (f"evicted from {self.tier} by the fleet budget: it loses ${self.loses_usd_per_month:,.2f} a month "
                f"there and its move costs ${self.cost_usd:,.2f} once, ${self.loses_usd:,.2f} over the "
                f"{self.horizon_months:g}-month payback horizon")
        if self.replacements:
            more = f" and {self.replacements - 1} more" if self.replacements > 1 else ""
            said += (f"; its {self.replaced_gb:,.2f} GB go to {self.replacement}{more}, which earn "
                     f"${self.replacement_earns_usd:,.2f} on them over the horizon after their moves")
        unreplaced = self.size_gb - self.replaced_gb
        if unreplaced > 0.005:
            said += (f"; {'its' if not self.replacements else f'{unreplaced:,.2f} GB of its'} room goes to no "
                     f"segment worth more: the budget is below what {self.tier} holds, or it did not fit whole "
                     "in what was left")
        return said


@dataclass(frozen=True)
class BudgetKept:
    """One segment holding a place (on the tier now, or chosen by the previous run) that keeps it, and why
    (``reason``: explain.KEPT_REASONS), against its challenger (the best segment left out that would fit in
    its place). Money per GB a month: ``value`` before one-off costs, ``worth`` with them spread over the
    horizon."""

    target: str
    segment_id: int
    label: str
    size_gb: float
    outcome: str
    why_it_holds: str
    reason: str
    value_usd_per_gb_month: float | None
    worth_usd_per_gb_month: float | None
    challenger: str
    challenger_value_usd_per_gb_month: float | None
    challenger_worth_usd_per_gb_month: float | None
    margin: float
    horizon_months: float

    @property
    def words(self) -> str:
        """Why it keeps its place, in one sentence."""
        head = f"Holds its place ({self.why_it_holds})"
        if self.reason == "room":
            return f"{head}: no segment left out would fit in its place."
        mine, theirs = _per_gb(self.value_usd_per_gb_month), _per_gb(self.challenger_value_usd_per_gb_month)
        if self.reason == "ahead":
            return f"{head}: it earns {mine} a month, its best challenger {self.challenger} {theirs}."
        worth_mine = _per_gb(self.worth_usd_per_gb_month)
        worth_theirs = _per_gb(self.challenger_worth_usd_per_gb_month)
        if self.reason == "one_off":
            return (f"{head}: its best challenger {self.challenger} earns {theirs} a month against its {mine}, "
                    f"but {worth_theirs} against its {worth_mine} once both moves' one-off costs are spread over "
                    f"the {self.horizon_months:g}-month payback horizon: the exchange would not repay.")
        more = ((self.challenger_worth_usd_per_gb_month or 0.0) / self.worth_usd_per_gb_month - 1.0
                if self.worth_usd_per_gb_month else 0.0)
        return (f"{head}: its best challenger {self.challenger} is worth {worth_theirs} a month against its "
                f"{worth_mine} (one-off costs spread over {self.horizon_months:g} months), {more * 100:.0f}% more, "
                f"short of the {self.margin * 100:.0f}% a challenger needs.")


def _per_gb(amount: float | None) -> str:
    return "an unknown amount per GB" if amount is None else f"{'-' if amount < 0 else ''}${abs(amount):,.4f}/GB"


@dataclass(frozen=True)
class FleetBudget:
    """A budget's split (apps.tiering.budget.Split) with what it was made of.

    ``targets`` are in the split's order; ``left_out`` names the enabled targets whose tier set has no tier of
    that name. ``rows`` holds the items' arrays (segment_id, elsewhere tier id, value per month ...);
    ``previous`` is the budget run of the tier remembered last, whose chosen segments hold their places.
    """

    tier: Tier
    capacity: Capacity
    split: Split
    targets: tuple[Target, ...]
    left_out: tuple[str, ...]
    rows: dict[str, np.ndarray]
    usd_per_gb_month: float
    tier_names: dict[int, str]
    items: Items
    terms: tuple[TargetTerms, ...]
    previous: BudgetRun | None = None

    @property
    def source(self) -> str:
        """How a plan made from it says it was chosen."""
        return f"fleet budget {self.capacity.words} of {self.tier.name}"

    @property
    def margin(self) -> float:
        return self.terms[0].margin if self.terms else 0.0

    @property
    def horizon_months(self) -> float:
        return float(self.terms[0].policy.horizon_months) if self.terms else 0.0

    def segments(self, *, target_index: int | None = None, limit: int | None = None) -> list[BudgetSegment]:
        """The segments moved in, out or evicted, or kept because their move out would not repay (all
        targets, or one), the most valuable per GB first; ``limit`` per call."""
        outcome = self.split.outcome
        chosen = np.isin(outcome, (Outcome.MOVES_IN, Outcome.MOVES_OUT, Outcome.EVICTED, Outcome.KEPT_NOT_REPAYING))
        if target_index is not None:
            chosen &= self.rows["target"] == target_index
        index = np.flatnonzero(chosen)
        size = self.rows["size_bytes"][index]
        with np.errstate(divide="ignore", invalid="ignore"):
            per_gb = np.where(size > 0, self.rows["value"][index] / (size / GB), np.nan)
        index = index[np.argsort(-np.nan_to_num(per_gb, nan=-np.inf), kind="stable")][:limit]
        names = self._names(index)
        return [self._segment(int(i), names) for i in index]

    def _segment(self, i: int, names: dict[int, str]) -> BudgetSegment:
        outcome = int(self.split.outcome[i])
        size = int(self.rows["size_bytes"][i])
        value = float(self.rows["value"][i])
        return BudgetSegment(
            target=self._target(i), segment_id=int(self.rows["segment_id"][i]), label=names[i],
            outcome=OUTCOMES[outcome], size_gb=size / GB, to_tier=self._to_tier(i),
            value_usd_per_gb_month=value / (size / GB) if size > 0 else None,
            saving_usd_per_month=(float(self.rows["saving"][i])
                                  if outcome in (Outcome.MOVES_IN, Outcome.MOVES_OUT, Outcome.EVICTED) else 0.0),
        )

    # -- evictions and kept places (apps.tiering.budget.explain) --------------------------------------------

    @cached_property
    def _evictions(self) -> explain.Evictions:
        return explain.evictions(self.items, self.terms, self.split)

    @cached_property
    def _kept(self) -> explain.Kept:
        return explain.kept(self.items, self.split)

    def evictions(self, *, target_index: int | None = None, limit: int | None = None) -> list[BudgetEviction]:
        """The evictions (all targets, or one), what they lose over the horizon first; ``limit`` per call."""
        found = self._evictions
        rows = np.arange(found.index.size)
        if target_index is not None:
            rows = rows[self.rows["target"][found.index] == target_index]
        rows = rows[np.argsort(-found.loses_usd[rows], kind="stable")][:limit]
        names = self._names(np.concatenate([found.index[rows], found.replacement[rows]]))
        return [self._eviction(found, int(k), names) for k in rows]

    def _eviction(self, found: explain.Evictions, k: int, names: dict[int, str]) -> BudgetEviction:
        i, replacement = int(found.index[k]), int(found.replacement[k])
        share = float(found.replaced_weight[k]) / float(found.weight[k]) if found.weight[k] > 0 else 0.0
        size_gb = max(int(self.rows["size_bytes"][i]), 0) / GB
        return BudgetEviction(
            target=self._target(i), segment_id=int(self.rows["segment_id"][i]), label=names[i], size_gb=size_gb,
            to_tier=self._to_tier(i), tier=self.tier.name,
            loses_usd_per_month=float(found.loses_usd_per_month[k]), cost_usd=float(found.cost_usd[k]),
            horizon_months=float(found.horizon_months[k]), loses_usd=float(found.loses_usd[k]),
            replaced_gb=size_gb * share, replacement=self._named(replacement, names, of=i) if replacement >= 0 else "",
            replacements=int(found.replacements[k]), replacement_earns_usd=float(found.replacement_earns_usd[k]),
        )

    def kept_counts(self) -> dict[str, int]:
        """How many segments holding a place keep it, by reason (explain.KEPT_REASONS)."""
        counts = np.bincount(self._kept.reason, minlength=len(KEPT_REASONS))
        return {reason: int(count) for reason, count in zip(KEPT_REASONS, counts)}

    def kept(self, *, reasons: tuple[str, ...] = ("one_off", "margin"), target_index: int | None = None,
             moving_in: bool = False, limit: int | None = None) -> list[BudgetKept]:
        """The segments holding a place that keep it for one of ``reasons`` (by default those a split without
        one-off costs and margins would have moved; all targets, or one; those moving in only, chosen before
        and not on the tier yet), the closest call first; ``limit`` per call."""
        found = self._kept
        codes = [KEPT_REASONS.index(reason) for reason in reasons]
        rows = np.flatnonzero(np.isin(found.reason, codes))
        if target_index is not None:
            rows = rows[self.rows["target"][found.index[rows]] == target_index]
        if moving_in:
            rows = rows[self.split.outcome[found.index[rows]] == Outcome.MOVES_IN]
        mine, theirs = found.index[rows], np.maximum(found.challenger[rows], 0)
        worth, weight = self.split.worth, self.split.weight
        with np.errstate(divide="ignore", invalid="ignore"):
            closeness = np.where(found.challenger[rows] >= 0,
                                 (worth[theirs] / np.maximum(weight[theirs], 1)) / (worth[mine] / np.maximum(weight[mine], 1)),
                                 -np.inf)
        rows = rows[np.argsort(-np.nan_to_num(closeness, nan=-np.inf), kind="stable")][:limit]
        names = self._names(np.concatenate([found.index[rows], found.challenger[rows]]))
        return [self._kept_one(found, int(k), names) for k in rows]

    def _kept_one(self, found: explain.Kept, k: int, names: dict[int, str]) -> BudgetKept:
        i, challenger = int(found.index[k]), int(found.challenger[k])
        return BudgetKept(
            target=self._target(i), segment_id=int(self.rows["segment_id"][i]), label=names[i],
            size_gb=max(int(self.rows["size_bytes"][i]), 0) / GB, outcome=OUTCOMES[int(self.split.outcome[i])],
            why_it_holds=self._why_it_holds(i), reason=KEPT_REASONS[int(found.reason[k])],
            value_usd_per_gb_month=self._per_gb(self.rows["value"], i),
            worth_usd_per_gb_month=self._per_gb(self.split.worth, i),
            challenger=self._named(challenger, names, of=i) if challenger >= 0 else "",
            challenger_value_usd_per_gb_month=self._per_gb(self.rows["value"], challenger),
            challenger_worth_usd_per_gb_month=self._per_gb(self.split.worth, challenger),
            margin=self.terms[int(self.rows["target"][i])].margin,
            horizon_months=float(self.terms[int(self.rows["target"][i])].policy.horizon_months),
        )

    def _why_it_holds(self, i: int) -> str:
        parts = []
        if self.rows["on_tier"][i]:
            parts.append(f"on {self.tier.name} now")
        incumbent = self.items.incumbent
        assert incumbent is not None  # Items.__post_init__ fills it
        if incumbent[i] and self.previous is not None:
            parts.append(f"chosen by the budget of {self.previous.made_at:%Y-%m-%d %H:%M} UTC")
        return " and ".join(parts)

    def lost(self) -> tuple[int, int]:
        """Segments the previous run chose, off the tier, that this split leaves off: (beaten by the margin,
        no longer candidates)."""
        return explain.lost(self.items, self.split)

    @property
    def explained(self) -> dict[str, Any]:
        """The explanations' counts for a page or the command: evictions, kept places by reason, places lost."""
        beaten, gone = self.lost()
        kept = self.kept_counts()
        return {"evictions": int(self._evictions.index.size), "kept": kept, "kept_total": sum(kept.values()),
                "lost_beaten": beaten,
                "lost_no_longer_candidates": gone, "margin": self.margin, "horizon_months": self.horizon_months,
                "previous": self.previous}

    # -- names ----------------------------------------------------------------------------------------------

    def _names(self, index: np.ndarray) -> dict[int, str]:
        """Each item's segment label, in one query."""
        index = index[index >= 0]
        ids = self.rows["segment_id"][index]
        found = {seg["id"]: segment_label(seg["owner"], seg["object_name"], seg["subobject_name"], seg["object_type"],
                                          seg["container"])
                 for seg in Segment.objects.filter(id__in=ids.tolist())
                 .values("id", "owner", "object_name", "subobject_name", "object_type", "container")}
        return {int(i): found.get(int(s), f"segment {int(s)}") for i, s in zip(index.tolist(), ids.tolist())}

    def _named(self, j: int, names: dict[int, str], *, of: int) -> str:
        """Item ``j``'s label, with its target's name when not the same as item ``of``'s."""
        same = self.rows["target"][j] == self.rows["target"][of]
        return names[j] if same else f"{self._target(j)}: {names[j]}"

    def _target(self, i: int) -> str:
        return self.targets[int(self.rows["target"][i])].name

    def _to_tier(self, i: int) -> str:
        outcome = int(self.split.outcome[i])
        if outcome in (Outcome.MOVES_OUT, Outcome.EVICTED):
            return self.tier_names.get(int(self.rows["elsewhere_tier_id"][i]), "")
        return self.tier.name

    def _per_gb(self, amount: np.ndarray, i: int) -> float | None:
        size = int(self.rows["size_bytes"][i]) if i >= 0 else 0
        return float(amount[i]) / (size / GB) if size > 0 and np.isfinite(amount[i]) else None


__all__ = ["BudgetEviction", "BudgetKept", "BudgetSegment", "FleetBudget"]
