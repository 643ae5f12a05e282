"""A plan after it ran: its moves recorded when it is marked executed, and each move's before and after.

Marking a plan executed records a move (apps.snapshots.models.SegmentMove,
source ``plan``) for each of its move steps, or links the move a collection
already saw (apps.snapshots.moves.segment_moves_planned); on the demo target it
also makes the simulator apply them from the next whole hour
(apps.targets.demo.moves), so the next collection sees them. A plan becomes
verified only when every move's after-window holds the snapshots a verdict
needs (apps.tiering.moves.verdicts.needed_snapshots).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from apps.core.config import get_config
from apps.snapshots.before_after import snapshot_intervals
from apps.snapshots.models import SegmentMove
from apps.snapshots.moves import PlannedMove, segment_moves_planned
from apps.targets.demo import moves as demo_moves
from apps.targets.models import Target
from apps.targets.rows import SegmentKey
from apps.tiering.moves import verdicts
from apps.tiering.plans.models import Plan, PlanStep
from apps.tiering.plans.steps import PlanError

#: Move steps compared on the plan page (each reads its two windows: a few queries); a larger plan's verdict
#: is that of its first ones, and says so. Verifying counts every move's after-window (one query).
VERDICT_STEPS = 100


@dataclass(frozen=True)
class StepVerdict:
    """One move step of an executed plan: its move (None: not recorded) and that move's comparison."""

    step: PlanStep
    move: SegmentMove | None
    comparison: verdicts.Comparison | None


@dataclass(frozen=True)
class PlanVerdict:
    steps: list[StepVerdict]
    verdict: str | None
    sentence: str


def _move_steps(plan: Plan) -> list[PlanStep]:
    return [step for step in plan.steps.filter(kind="move").order_by("position")
            if step.segment_id and step.to_tablespace and step.to_tablespace != step.from_tablespace]


def plan_moves_record(*, plan: Plan, executed_at: dt.datetime) -> int:
    """Record the moves of a plan marked executed (and apply them to the demo); returns how many."""
    steps = _move_steps(plan)
    segment_moves_planned(target_id=plan.target_id, executed_at=executed_at, since=plan.approved_at, planned=[
        PlannedMove(segment_id, step.from_tablespace, step.to_tablespace, step.pk) for step in steps
        if (segment_id := step.segment_id) is not None])  # all are (_move_steps)
    target = Target.objects.select_for_update().get(pk=plan.target_id)
    if target.mode == Target.Mode.DEMO and steps:
        applied = demo_moves.executed_moves(executed_at=executed_at, moved=[
            (SegmentKey(s.owner, s.object_name, s.subobject_name, s.object_type), s.to_tablespace) for s in steps])
        known = demo_moves.moves_from_json(target.capabilities.get(demo_moves.CAPABILITY_KEY))
        target.capabilities = {**target.capabilities,
                               demo_moves.CAPABILITY_KEY: demo_moves.moves_to_json((*known, *applied))}
        target.save(update_fields=["capabilities"])
    return len(steps)


def plan_verdict(*, plan: Plan, before_days: float | None = None, after_days: float | None = None) -> PlanVerdict:
    """Each move step's before and after, and the plan's verdict (None before it is executed)."""
    days = get_config()["BEFORE_AFTER_DAYS"]
    before_days, after_days = before_days or days, after_days or days
    moves = {m.plan_step_id: m for m in SegmentMove.objects.filter(target_id=plan.target_id,
                                                                   plan_step_id__isnull=False)
             .select_related("segment__target__tier_set")}
    rows = []
    steps = _move_steps(plan)
    tiers = verdicts.tablespace_tiers(plan.target_id) if moves else {}  # one read for every step
    for step in steps[:VERDICT_STEPS]:
        move = moves.get(step.pk)
        comparison = (verdicts.move_comparison(move=move, before_days=before_days, after_days=after_days,
                                               tiers=tiers) if move is not None else None)
        rows.append(StepVerdict(step, move, comparison))
    verdict, sentence = _overall([row.comparison for row in rows])
    if len(steps) > VERDICT_STEPS:
        sentence += f" (The first {VERDICT_STEPS} of its {len(steps)} moves compared.)"
    return PlanVerdict(rows, verdict, sentence)


def _overall(comparisons: list[verdicts.Comparison | None]) -> tuple[str | None, str]:
    if not comparisons:
        return None, "The plan moves no segment: nothing to compare."
    judged = [c.verdict for c in comparisons if c is not None]
    counts = {name: judged.count(name) for name in (verdicts.PAID, verdicts.DID_NOT_PAY, verdicts.TOO_EARLY,
                                                      verdicts.NOT_JUDGED)}
    parts = ", ".join(f"{n} {name}" for name, n in counts.items() if n)
    missing = len(comparisons) - len(judged)
    if missing:
        parts += f"{', ' if parts else ''}{missing} not recorded"
    saved = [c.io_time_saved_s_per_day for c in comparisons if c is not None]
    total = None if not saved or None in saved else sum(s for s in saved if s is not None)
    plural = "s" if len(comparisons) != 1 else ""
    io_words = "IO time saved not known yet." if total is None else f"IO time {verdicts.saved_words(total)} a day, measured."
    figures = f"{len(comparisons)} move{plural}: {parts}; {io_words}"
    if missing or counts[verdicts.TOO_EARLY]:
        return verdicts.TOO_EARLY, f"Too early: {figures}"
    if counts[verdicts.DID_NOT_PAY]:
        return verdicts.DID_NOT_PAY, f"Did not pay: {figures}"
    if counts[verdicts.NOT_JUDGED]:
        return verdicts.NOT_JUDGED, f"Not judged: {figures}"
    return verdicts.PAID, f"Paid: {figures}"


def plan_verify_check(*, plan: Plan) -> None:
    """Raise PlanError (one line) unless every move of the plan has an after-window that holds the snapshots
    a verdict needs (the default windows)."""
    days = get_config()["BEFORE_AFTER_DAYS"]
    moves = {m.plan_step_id: m for m in SegmentMove.objects.filter(target_id=plan.target_id,
                                                                   plan_step_id__isnull=False)}
    intervals = snapshot_intervals(target_id=plan.target_id)  # once: a plan may move 10k segments
    for step in _move_steps(plan):
        move = moves.get(step.pk)
        name = f"step {step.position} ({step.owner}.{step.object_name})"
        if move is None:
            raise PlanError(f"plan {plan.pk} cannot be verified yet: {name} has no recorded move")
        held, needed = verdicts.moved_windows_ready(move=move, before_days=days, after_days=days,
                                                    intervals=intervals)
        if held < needed:
            raise PlanError(f"plan {plan.pk} cannot be verified yet: the after-window of {name} holds {held} "
                            f"snapshot{'s' if held != 1 else ''}, a verdict needs {needed}")
