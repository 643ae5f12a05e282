"""Reads of move plans: the list, one plan, its steps as the pages and exports read them."""

from __future__ import annotations

from collections.abc import Iterator

from django.db import transaction
from django.db.models import QuerySet

from apps.core.config import get_config
from apps.tiering.models import Recommendation
from apps.tiering.plans.models import Plan, PlanStep
from apps.tiering.plans.script import ScriptHeader, StepRow, plan_csv, plan_csv_parts, plan_script
from apps.tiering.plans.steps import PLANNABLE_ACTIONS

_STEP_FIELDS = StepRow._fields


def plan_list(*, target_id: int | None = None) -> QuerySet[Plan]:
    # Not those of a target being deleted (apps.targets.deletion).
    plans = Plan.objects.filter(target__deleting_since__isnull=True).select_related("target").order_by("-created_at", "-id")
    return plans if target_id is None else plans.filter(target_id=target_id)


def plan_steps_list(*, plan_id: int) -> QuerySet[PlanStep]:
    return PlanStep.objects.filter(plan_id=plan_id).order_by("position")


def plan_step_rows(*, plan_id: int) -> Iterator[StepRow]:
    """The steps in order, read as plain rows (a plan of 10k steps: no model object per step)."""
    for values in plan_steps_list(plan_id=plan_id).values_list(*_STEP_FIELDS).iterator(
            chunk_size=get_config()["PLAN_STEPS_FETCH_ROWS"]):
        yield StepRow._make(values)


def plan_header(plan: Plan) -> ScriptHeader:
    """The facts an export's head states: who made and approved the plan, and its totals."""
    lines = [f"made {plan.created_at:%Y-%m-%d %H:%M} UTC by {plan.created_by_name} from {plan.source}"]
    if plan.approved_at:
        lines.append(f"approved {plan.approved_at:%Y-%m-%d %H:%M} UTC by {plan.approved_by_name}")
    else:
        lines.append("NOT APPROVED: a plan is approved by an admin other than its author before it is run")
    lines.append(f"{plan.steps_count} steps, {plan.moves_count} moves; DDL for release {plan.release}")
    return ScriptHeader(plan_id=plan.pk, target=plan.target.name, dbid=plan.dbid, state=plan.state,
                        lines=tuple(lines))


def plan_export(*, plan: Plan, fmt: str) -> str:
    """The plan as a SQL*Plus script (``sql``) or CSV (``csv``)."""
    writer = {"sql": plan_script, "csv": plan_csv}[fmt]
    return writer(plan_header(plan), plan_step_rows(plan_id=plan.pk))


def plan_export_csv_parts(*, plan: Plan) -> Iterator[str]:
    """plan_export(plan=plan, fmt="csv") in parts, for a streamed download: each part is made as its steps are
    read, inside a transaction so their cursor streams (outside one it is declared WITH HOLD and PostgreSQL
    writes out every step before the first); ended (rolled back: nothing is written) if the download is
    abandoned."""
    header = plan_header(plan)
    with transaction.atomic():
        yield from plan_csv_parts(header, plan_step_rows(plan_id=plan.pk))


def plannable_recommendations(*, target_id: int, limit: int):
    """The target's current recommendations a plan can carry out (moves and hints), largest saving first."""
    return list(Recommendation.objects.current(target_id=target_id).filter(action__in=PLANNABLE_ACTIONS)
                .select_related("run", "segment", "current_tier", "recommended_tier")
                .order_by("-savings_usd", "segment_id")[:limit])
