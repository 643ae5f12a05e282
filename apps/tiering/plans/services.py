"""Making move plans from a target's current recommendations, and moving them through their states.

A plan is made from the recommendations a DBA selects, from every move worth making (the current
recommendations whose action is a move: a "not_worth_moving" or held segment is no move), or from a
budget of N GB on a tier (the moves onto that tier with the most saving per GB that fit). Its steps
are ordered and worded by apps.tiering.plans.steps; it is stored with its totals. Its state moves
draft -> approved (by an admin other than its author) -> executed -> verified; each change is saved
on the plan (who, when) and written to the audit log by django-auditlog (Plan is registered).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from django.db import transaction
from django.utils import timezone

from apps.snapshots.models import Snapshot
from apps.targets.models import Target
from apps.tiering.explain import _tablespace_for_tier, explain
from apps.tiering.models import Recommendation, Tier
from apps.tiering.plans import space
from apps.tiering.plans.models import Plan, PlanStep
from apps.tiering.plans.steps import (
    MOVE_ACTIONS,
    PLANNABLE_ACTIONS,
    PlanError,
    PlanItem,
    advised_hint,
    advised_partitions,
    plan_steps,
    plan_totals,
)

_CENT = Decimal("0.01")
#: Steps written per INSERT.
STEP_BATCH = 2000


def plan_create(*, target: Target, author: Any, author_name: str, segment_ids: Sequence[int] | None = None,
                all_worth_moving: bool = False, budget_gb: float | None = None, budget_tier: Tier | None = None,
                note: str = "", now: dt.datetime | None = None) -> Plan:
    """A draft plan of ``target``'s current recommendations: those of ``segment_ids``, every move
    (``all_worth_moving``), or the moves onto ``budget_tier`` that fit in ``budget_gb`` (most saving per GB
    first). Raises PlanError (one line) when nothing can be planned as asked."""
    recs, source = _chosen(target, segment_ids=segment_ids, all_worth_moving=all_worth_moving,
                           budget_gb=budget_gb, budget_tier=budget_tier)
    dbid = (Snapshot.objects.filter(target_id=target.id).order_by("-end_at", "-id")
            .values_list("dbid", flat=True).first())
    if dbid is None:
        raise PlanError(f"target {target.name} has no snapshot, so its DBID is unknown: a plan's script could "
                        "not check which database it runs on")
    release = target.capabilities.get("release") or "19.0.0.0.0"
    steps = plan_steps(_items(recs, target), release=release)
    room = space.free_space_after(target=target, steps=steps)
    totals = plan_totals(steps)
    with transaction.atomic():
        plan = Plan.objects.create(
            target=target, run_id=recs[0].run_id, dbid=dbid, release=release, source=source, note=note,
            created_at=now or timezone.now(), created_by=author if getattr(author, "pk", None) else None,
            created_by_name=author_name, steps_count=totals.steps, moves_count=totals.moves,
            size_bytes=totals.size_bytes, seconds=totals.seconds, redo_bytes=totals.redo_bytes,
            saving_usd_per_month=totals.saving_usd_per_month, move_cost_usd=totals.move_cost_usd,
            payback_days=totals.payback_days, unknown_seconds=totals.unknown_seconds,
            unknown_redo=totals.unknown_redo, unknown_cost=totals.unknown_cost,
            free_space_checked=room is not None,
            shortfalls=sum(1 for _, short in (room or {}).values() if short),
        )
        PlanStep.objects.bulk_create([_row(plan, step, (room or {}).get(step.position, (None, None)))
                                      for step in steps], batch_size=STEP_BATCH)
    return plan


def _chosen(target: Target, *, segment_ids, all_worth_moving, budget_gb, budget_tier) -> tuple[list, str]:
    current = (Recommendation.objects.current(target_id=target.id)
               .select_related("run", "segment", "current_tier", "cost_tier", "recommended_tier"))
    if sum(bool(x) for x in (segment_ids, all_worth_moving, budget_gb is not None)) != 1:
        raise PlanError("choose one: selected recommendations, all worth moving, or a budget of N GB on a tier")
    if segment_ids:
        recs = list(current.filter(segment_id__in=set(segment_ids)).order_by("segment_id"))
        missing = sorted(set(segment_ids) - {rec.segment_id for rec in recs})
        if missing:
            raise PlanError(f"segments {', '.join(map(str, missing[:10]))} have no current recommendation on "
                            f"target {target.name}")
        refused = [rec for rec in recs if rec.action not in PLANNABLE_ACTIONS]
        if refused:
            rec = refused[0]
            raise PlanError(f"{rec.segment}: its recommendation is {rec.action!r}, which a plan does not carry out"
                            f" (only moves and flash cache hints){f'; and {len(refused) - 1} more' if len(refused) > 1 else ''}")
        source = f"selected ({len(recs)} recommendation{'s' if len(recs) != 1 else ''})"
    elif all_worth_moving:
        recs = list(current.filter(action__in=MOVE_ACTIONS).order_by("segment_id"))
        source = "all worth moving"
    else:
        recs, source = _within_budget(target, current, budget_gb, budget_tier)
    if not recs:
        raise PlanError(f"nothing to plan on target {target.name}: {source} gives no recommendation to carry out")
    return recs, source


def _within_budget(target: Target, current, budget_gb: float, tier: Tier | None) -> tuple[list, str]:
    """The moves onto ``tier`` with the most saving per GB, as long as they fit in ``budget_gb`` (a move
    that does not fit is skipped, a smaller one after it may); sizes unknown are never counted in."""
    if tier is None or tier.tier_set_id != target.tier_set_id:
        raise PlanError(f"a budget needs a tier of target {target.name}'s set {target.tier_set_id}")
    if budget_gb is None or budget_gb <= 0:
        raise PlanError(f"a budget of {budget_gb} GB holds no move: give a number of GB above 0")
    candidates = list(current.filter(action__in=MOVE_ACTIONS, recommended_tier=tier, size_bytes__gt=0,
                                     savings_usd__gt=0))
    candidates.sort(key=lambda rec: (-(rec.savings_usd / rec.size_bytes), rec.segment_id))
    left = budget_gb * 1024**3
    recs = []
    for rec in candidates:
        if rec.size_bytes <= left:
            recs.append(rec)
            left -= rec.size_bytes
    return sorted(recs, key=lambda rec: rec.segment_id), f"budget: {budget_gb:g} GB on {tier.name}"


def _items(recs: list[Recommendation], target: Target) -> list[PlanItem]:
    # The advice's hint and hot partitions, as the segment page words them (apps.tiering.explain); each step's
    # own statements are written again by apps.tiering.plans.steps.
    explanations = explain(recs, target=target)
    tablespace_for_tier = _tablespace_for_tier(target.id)
    basis = target.tier_set.basis
    items = []
    for rec, explanation in zip(recs, explanations):
        seg, tier = rec.segment, rec.recommended_tier
        saving = None if rec.savings_usd is None else basis.per_month(rec.savings_usd).quantize(_CENT, ROUND_HALF_UP)
        items.append(PlanItem(
            segment_id=seg.id, owner=seg.owner, object_name=seg.object_name, object_type=seg.object_type,
            action=rec.action, subobject_name=seg.subobject_name, partitioned_parent=seg.partitioned_parent,
            lob_column=seg.lob_column, name_truncated=seg.name_truncated, from_tablespace=seg.tablespace_name,
            to_tablespace=tablespace_for_tier.get(tier.id) if tier else None, to_tier=tier.name if tier else "",
            onto_flash=bool(tier and tier.is_flash),
            hot_partitions=advised_partitions(explanation.ddl) if rec.action == "move_partitions" else (),
            flash_cache_hint=advised_hint(reason.code for reason in explanation.reasons),
            size_bytes=rec.size_bytes, move_seconds=rec.move_seconds,
            move_redo_bytes=rec.move_redo_bytes, saving_usd_per_month=saving, move_cost_usd=rec.move_cost_usd,
            payback_days=rec.payback_days,
        ))
    return items


def _row(plan: Plan, step, room: tuple[int | None, int | None]) -> PlanStep:
    item = step.item
    return PlanStep(
        plan=plan, position=step.position, phase=step.phase, kind=step.kind, segment_id=item.segment_id,
        owner=item.owner, object_name=item.object_name, subobject_name=step.subobject_name,
        object_type=step.object_type, action=item.action, from_tablespace=item.from_tablespace,
        to_tablespace=(item.to_tablespace or "") if step.kind == "move" else "", to_tier=item.to_tier,
        runnable=step.runnable, ddl="\n".join(step.ddl), size_bytes=step.size_bytes, seconds=step.seconds,
        redo_bytes=step.redo_bytes, free_after_bytes=room[0], shortfall_bytes=room[1],
        saving_usd_per_month=step.saving_usd_per_month, move_cost_usd=step.move_cost_usd,
        payback_days=step.payback_days,
    )


#: The state each state is reached from.
TRANSITIONS = {Plan.State.APPROVED: Plan.State.DRAFT, Plan.State.EXECUTED: Plan.State.APPROVED,
               Plan.State.VERIFIED: Plan.State.EXECUTED}


def plan_transition(*, plan_id: int, to: str, user: Any, now: dt.datetime | None = None) -> Plan:
    """Move a plan on to ``to`` (approved, executed or verified), recording who and when. Admins only; a
    plan is approved by an admin other than its author. Raises PlanError (one line) otherwise."""
    if not getattr(user, "is_staff", False):
        raise PlanError("only an admin changes a plan's state")
    if to not in TRANSITIONS:
        raise PlanError(f"a plan cannot be moved to {to!r}: only to {', '.join(TRANSITIONS)}")
    now = now or timezone.now()
    with transaction.atomic():
        plan = Plan.objects.select_for_update().get(pk=plan_id)
        if plan.state != TRANSITIONS[to]:
            raise PlanError(f"plan {plan.pk} is {plan.state}: it becomes {to} only from {TRANSITIONS[to]}")
        name = user.get_username()
        if to == Plan.State.APPROVED:
            if plan.created_by_id is not None and plan.created_by_id == user.pk:
                raise PlanError(f"plan {plan.pk} was made by {name}: another admin approves it")
            plan.approved_at, plan.approved_by, plan.approved_by_name = now, user, name
        elif to == Plan.State.EXECUTED:
            plan.executed_at, plan.executed_by_name = now, name
        else:
            plan.verified_at, plan.verified_by_name = now, name
        plan.state = to
        plan.save()
    return plan
