"""The before and after view of the segment and plan pages: window lengths from the request, the comparisons."""

from __future__ import annotations

from dataclasses import dataclass

from django.http import QueryDict

from apps.core.config import get_config
from apps.snapshots.before_after import compare_periods, segment_moves_list
from apps.snapshots.models import Segment
from apps.tiering.moves.verdicts import Comparison, move_comparison, periods_comparison
from apps.tiering.plans.models import Plan
from apps.tiering.plans.steps import PlanError
from apps.tiering.plans.verification import plan_verdict, plan_verify_check

#: Window lengths a DBA may choose, in days.
MIN_DAYS, MAX_DAYS = 0.25, 60.0


@dataclass(frozen=True)
class WindowChoice:
    """The before- and after-window lengths asked for (the defaults where not given or not valid)."""

    before_days: float
    after_days: float
    error: str = ""


def window_choice(query: QueryDict) -> WindowChoice:
    """``before_days`` / ``after_days`` from a GET query, each within MIN_DAYS..MAX_DAYS."""
    default = float(get_config()["BEFORE_AFTER_DAYS"])
    chosen, errors = [], []
    for name in ("before_days", "after_days"):
        raw = query.get(name, "")
        if raw == "":
            chosen.append(default)
            continue
        try:
            days = float(raw)
        except ValueError:
            days = float("nan")
        if not MIN_DAYS <= days <= MAX_DAYS:
            errors.append(f"{name.replace('_', ' ')} must be a number of days from {MIN_DAYS:g} to {MAX_DAYS:g}, "
                          f"not {raw!r}: {default:g} used")
            days = default
        chosen.append(days)
    return WindowChoice(chosen[0], chosen[1], "; ".join(errors))


def segment_before_after(*, segment: Segment, choice: WindowChoice) -> dict:
    """The segment page's context: each of the segment's moves compared, or the two periods of a
    compare-period report it was imported from."""
    comparisons: list[Comparison] = [
        move_comparison(move=move, before_days=choice.before_days, after_days=choice.after_days)
        for move in segment_moves_list(segment_id=segment.id)
    ]
    periods = False
    if not comparisons:
        pair = compare_periods(target_id=segment.target_id)
        if pair is not None:
            first, second = pair
            comparison = periods_comparison(segment=segment, first=first, second=second)
            if comparison.before.snapshots or comparison.after.snapshots:
                comparisons, periods = [comparison], True
    return {"comparisons": comparisons, "periods": periods, "choice": choice,
            "tolerance": float(get_config()["VERDICT_COST_TOLERANCE"])}


def plan_before_after(*, plan: Plan, choice: WindowChoice) -> dict:
    """The plan page's context once a plan is executed: each move step's verdict, the plan's, and whether
    it may be marked verified (and why not)."""
    if plan.state not in (Plan.State.EXECUTED, Plan.State.VERIFIED):
        return {"plan_verdict": None}
    verify_refusal = ""
    if plan.state == Plan.State.EXECUTED:
        try:
            plan_verify_check(plan=plan)
        except PlanError as exc:
            verify_refusal = str(exc)
    return {"plan_verdict": plan_verdict(plan=plan, before_days=choice.before_days, after_days=choice.after_days),
            "verify_refusal": verify_refusal, "before_after": {"choice": choice}}
