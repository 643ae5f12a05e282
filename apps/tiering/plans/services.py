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
import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from django.db import connection, transaction
from django.utils import timezone

from apps.core.columns import model_columns
from apps.core.fields import cents
from apps.snapshots.models import Snapshot
from apps.targets.models import Target
from apps.tiering import rules
from apps.tiering import sql as pg
from apps.tiering.models import Recommendation, Tier
from apps.tiering.plans import space, verification
from apps.tiering.plans.models import Plan, PlanStep
from apps.tiering.plans.script import StepRow
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
from apps.tiering.recommendations.explain import _tablespace_for_tier, explain
from apps.tiering.recommendations.export import _attach
from apps.tiering.signals import announce, plan_state_changed

_CENT = Decimal("0.01")
#: What a plan reads of a recommendation and its segment (the rest is left in the database: 10k rows).
_READ_FIELDS = (
    "run_id", "segment_id", "action", "findings", "size_bytes", "savings_usd", "move_seconds", "move_redo_bytes",
    "move_cost_usd", "payback_days", "current_tier_id", "cost_tier_id", "recommended_tier_id",
    *(f"segment__{name}" for name in ("id", "target_id", "owner", "object_name", "subobject_name", "object_type",
                                      "tablespace_name", "partitioned_parent", "lob_column", "name_truncated",
                                      "container", "table_partition_name")),
)
#: The findings that carry a flash cache hint (rules.decide: KEEP before NONE).
_HINT_FINDINGS = tuple((1 << rules.FINDING_CODES.index(code), code) for code in ("flash_cache_keep", "flash_cache_none"))


def plan_create(*, target: Target, author: Any, author_name: str, segment_ids: Sequence[int] | None = None,
                all_worth_moving: bool = False, budget_gb: float | None = None, budget_tier: Tier | None = None,
                note: str = "", now: dt.datetime | None = None, moves: Mapping[int, PlanMove | None] | None = None,
                source: str | None = None, notes: Mapping[int, str] | None = None) -> Plan:
    """A draft plan of ``target``'s current recommendations: those of ``segment_ids``, every move
    (``all_worth_moving``), the moves onto ``budget_tier`` that fit in ``budget_gb`` (most saving per GB
    first), or ``moves`` (segment id -> a PlanMove, or None for its recommendation as it is: what a fleet
    budget makes, apps.tiering.budget.services), described by ``source`` when given; ``notes`` (segment id ->
    one line) are written as a comment above that segment's move. Raises PlanError (one line) when nothing can
    be planned as asked."""
    recs, chosen_by = _chosen(target, segment_ids=segment_ids or (list(moves) if moves else None),
                              all_worth_moving=all_worth_moving, budget_gb=budget_gb, budget_tier=budget_tier,
                              moves=moves)
    source = source or chosen_by
    dbid = (Snapshot.objects.filter(target_id=target.id).order_by("-end_at", "-id")
            .values_list("dbid", flat=True).first())
    if dbid is None:
        raise PlanError(f"target {target.name} has no snapshot, so its DBID is unknown: a plan's script could "
                        "not check which database it runs on")
    release = target.capabilities.get("release") or "19.0.0.0.0"
    steps = plan_steps(_items(recs, target, notes or {}), release=release)
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
        _steps_copy(plan, steps, room or {})
    return plan


def _cents(amount: Decimal | None) -> int | None:
    return None if amount is None else cents(amount)


#: A step's columns as _steps_copy writes them: its plan and segment, then the step as the exports read it.
_COPIED = ("plan", "segment", *StepRow._fields)
#: How each of the step's values is written: its MoneyFields in cents, the rest as they are.
_WRITTEN: tuple[Callable[[Any], Any] | None, ...] = tuple(
    _cents if name in ("saving_usd_per_month", "move_cost_usd") else None for name in StepRow._fields)


def _steps_copy(plan: Plan, steps, room: space.Room) -> None:
    """The steps written with COPY: 10k steps by bulk_create (a model object each, then every value
    prepared by its field) took 3.8 s of a plan's 6."""
    columns = [column.column for column in model_columns(PlanStep, _COPIED)]
    with connection.cursor() as cursor, cursor.cursor.copy(pg.plan_steps_copy(columns)) as copy:
        for step in steps:
            row = _step_row(step, room.get(step.position, (None, None)))
            copy.write_row((plan.pk, step.item.segment_id,
                            *[value if write is None else write(value) for write, value in zip(_WRITTEN, row)]))


def _step_row(step, room: tuple[int | None, int | None]) -> StepRow:
    item = step.item
    return StepRow(
        position=step.position, phase=step.phase, kind=step.kind, owner=item.owner, object_name=item.object_name,
        subobject_name=step.subobject_name, object_type=step.object_type, action=item.action,
        from_tablespace=item.from_tablespace,
        to_tablespace=(item.to_tablespace or "") if step.kind == "move" else "", to_tier=item.to_tier,
        runnable=step.runnable, ddl="\n".join(step.ddl), seconds=step.seconds, redo_bytes=step.redo_bytes,
        size_bytes=step.size_bytes, free_after_bytes=room[0], shortfall_bytes=room[1],
        saving_usd_per_month=step.saving_usd_per_month, move_cost_usd=step.move_cost_usd,
        payback_days=step.payback_days, container=item.container,
    )


@dataclass(frozen=True)
class PlanMove:
    """A move a plan makes although the segment's recommendation is not that move: a fleet budget's move out
    of a tier it has no room on (apps.tiering.budget). To ``tier`` (of the target's set), saving ``saving_usd``
    (the set's unit, like Recommendation.savings_usd; negative: it costs) with the move's one-off estimates."""

    tier: Tier
    saving_usd: Decimal | None
    move_seconds: float | None
    move_redo_bytes: int | None
    move_cost_usd: Decimal | None
    payback_days: float | None


def _redirected(rec: Recommendation, move: PlanMove) -> None:
    """The recommendation, read for a plan only (never saved), as the move ``move`` says."""
    rec.action, rec.recommended_tier_id, rec.savings_usd = rules.ACTION_MOVE, move.tier.pk, move.saving_usd
    rec.move_seconds, rec.move_redo_bytes = move.move_seconds, move.move_redo_bytes
    rec.move_cost_usd, rec.payback_days = move.move_cost_usd, move.payback_days


def _chosen(target: Target, *, segment_ids, all_worth_moving, budget_gb, budget_tier,
            moves: Mapping[int, PlanMove | None] | None = None) -> tuple[list, str]:
    # The segment joined, the tiers and runs attached once each (export._attach): at 10k rows, a tier and run
    # object built per row was a third of making the plan.
    current = (Recommendation.objects.current(target_id=target.id).select_related("segment")
               .only(*_READ_FIELDS))
    if sum(bool(x) for x in (segment_ids, all_worth_moving, budget_gb is not None)) != 1:
        raise PlanError("choose one: selected recommendations, all worth moving, or a budget of N GB on a tier")
    if segment_ids:
        recs = list(current.filter(segment_id__in=set(segment_ids)).order_by("segment_id"))
        for rec in recs:
            if (move := (moves or {}).get(rec.segment_id)) is not None:
                _redirected(rec, move)
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
    _attach(recs, {}, {})
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


def _items(recs: list[Recommendation], target: Target, notes: Mapping[int, str]) -> list[PlanItem]:
    # A move_partitions advice's hot partitions, as the segment page words them (apps.tiering.recommendations.explain: the rules
    # run again on the stored figures), for those few rows only; each step's statements are written again by
    # apps.tiering.plans.steps. The flash cache hint beside a move is in the stored findings.
    skewed_ids = [rec.segment_id for rec in recs if rec.action == "move_partitions"]
    skewed = list(Recommendation.objects.filter(run_id=recs[0].run_id, segment_id__in=skewed_ids).select_related(
        "run", "segment", "current_tier", "cost_tier", "recommended_tier")) if skewed_ids else []
    hot = {(rec.run_id, rec.segment_id): advised_partitions(explanation.ddl)
           for rec, explanation in zip(skewed, explain(skewed, target=target))}
    tablespace_for_tier = _tablespace_for_tier(target.id)
    basis = target.tier_set.basis
    items = []
    for rec in recs:
        seg, tier = rec.segment, rec.recommended_tier
        saving = None if rec.savings_usd is None else basis.per_month(rec.savings_usd).quantize(_CENT, ROUND_HALF_UP)
        items.append(PlanItem(
            segment_id=seg.id, owner=seg.owner, object_name=seg.object_name, object_type=seg.object_type,
            action=rec.action, subobject_name=seg.subobject_name, container=seg.container,
            partitioned_parent=seg.partitioned_parent,
            lob_column=seg.lob_column, name_truncated=seg.name_truncated, from_tablespace=seg.tablespace_name,
            table_partition_name=seg.table_partition_name,
            to_tablespace=tablespace_for_tier.get(tier.id) if tier else None, to_tier=tier.name if tier else "",
            onto_flash=bool(tier and tier.is_flash),
            hot_partitions=hot.get((rec.run_id, rec.segment_id), ()),
            flash_cache_hint=advised_hint(code for bit, code in _HINT_FINDINGS if rec.findings & bit),
            size_bytes=rec.size_bytes, move_seconds=rec.move_seconds,
            move_redo_bytes=rec.move_redo_bytes, saving_usd_per_month=saving, move_cost_usd=rec.move_cost_usd,
            payback_days=rec.payback_days, note=notes.get(seg.id, ""),
        ))
    return items


#: The state each state is reached from.
TRANSITIONS: dict[str, str] = {Plan.State.APPROVED: Plan.State.DRAFT, Plan.State.EXECUTED: Plan.State.APPROVED,
               Plan.State.VERIFIED: Plan.State.EXECUTED}


def plan_transition(*, plan_id: int, to: str, user: Any, now: dt.datetime | None = None) -> Plan:
    """Move a plan on to ``to`` (approved, executed or verified), recording who and when. Admins only; a
    plan is approved by an admin other than its author; executed records its moves (and applies them to the
    demo); verified only once every move's after-window holds the snapshots a verdict needs
    (apps.tiering.plans.verification). Raises PlanError (one line) otherwise."""
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
            verification.plan_moves_record(plan=plan, executed_at=now)
        else:
            verification.plan_verify_check(plan=plan)
            plan.verified_at, plan.verified_by_name = now, name
        plan.state = to
        plan.save()
        transaction.on_commit(functools.partial(announce, plan_state_changed, plan_id=plan.pk, state=to, by=name))
    return plan
