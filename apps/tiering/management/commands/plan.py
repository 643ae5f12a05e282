"""`manage.py plan create|show|export`: move plans for DBAs who script.

    plan create TARGET (--all-worth-moving | --segment ID [--segment ID ...] | --budget-gb N --tier NAME) [--note TEXT]
    plan show PLAN_ID
    plan export PLAN_ID --format sql|csv [--output FILE]

A plan made here is a draft like one made on its page; an admin approves it on the plan's page.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError
from tabulate import tabulate

from apps.core.audit import audit_command, command_actor_name
from apps.targets.management.lookups import target_named
from apps.targets.models import Target
from apps.tiering.models import Tier
from apps.tiering.plans.models import Plan
from apps.tiering.plans.selectors import plan_export, plan_header, plan_step_rows
from apps.tiering.plans.services import plan_create
from apps.tiering.plans.steps import PlanError
from apps.tiering.rules.in_words import money, size


class Command(BaseCommand):
    help = "Make a move plan from a target's recommendations, show one, or export its SQL*Plus script or CSV."

    def add_arguments(self, parser: Any) -> None:
        sub = parser.add_subparsers(dest="action", required=True)
        create = sub.add_parser("create", help="a draft plan of a target's current recommendations")
        create.add_argument("target")
        chosen = create.add_mutually_exclusive_group(required=True)
        chosen.add_argument("--all-worth-moving", action="store_true", help="every current move")
        chosen.add_argument("--segment", type=int, action="append", help="a segment id (repeat for more)")
        chosen.add_argument("--budget-gb", type=float, help="the moves onto --tier that fit in this many GB")
        create.add_argument("--tier", help="the tier of --budget-gb")
        create.add_argument("--note", default="")
        show = sub.add_parser("show", help="a plan's facts, totals and steps")
        show.add_argument("plan_id", type=int)
        export = sub.add_parser("export", help="a plan's SQL*Plus script or CSV")
        export.add_argument("plan_id", type=int)
        export.add_argument("--format", choices=["sql", "csv"], default="sql")
        export.add_argument("--output", type=Path, help="write to this file (default: standard output)")

    @audit_command("plan")
    def handle(self, *args: Any, **options: Any) -> None:
        try:
            getattr(self, f"_{options['action']}")(options)
        except PlanError as exc:
            raise CommandError(str(exc)) from None

    def _create(self, options: dict[str, Any]) -> None:
        target = target_named(options["target"], Target.objects.select_related("tier_set"))
        tier = None
        if options["budget_gb"] is not None:
            if not options["tier"]:
                raise CommandError("--budget-gb needs --tier NAME (a tier of the target's set)")
            tier = Tier.objects.filter(tier_set_id=target.tier_set_id, name=options["tier"]).first()
            if tier is None:
                raise CommandError(f"No tier {options['tier']!r} in {target.name}'s set {target.tier_set_id}.")
        plan = plan_create(target=target, author=None, author_name=command_actor_name("plan"),
                           segment_ids=options["segment"], all_worth_moving=options["all_worth_moving"],
                           budget_gb=options["budget_gb"], budget_tier=tier, note=options["note"])
        self.stdout.write(f"plan {plan.pk}: {plan.steps_count} steps ({plan.source}), draft until an admin approves it")

    def _plan(self, plan_id: int):
        try:
            return Plan.objects.select_related("target").get(pk=plan_id)
        except Plan.DoesNotExist:
            raise CommandError(f"No plan {plan_id}.") from None

    def _show(self, options: dict[str, Any]) -> None:
        plan = self._plan(options["plan_id"])
        header = plan_header(plan)
        self.stdout.write(f"plan {plan.pk}: target {plan.target.name}, DBID {plan.dbid}, {plan.state}")
        for line in header.lines:
            self.stdout.write(f"  {line}")
        unknown = "unknown"
        self.stdout.write(
            f"  saving {unknown if plan.saving_usd_per_month is None else '$' + money(plan.saving_usd_per_month)}"
            f"/month, one-off cost "
            f"{unknown if plan.move_cost_usd is None else plan.move_cost_usd}, payback "
            f"{unknown if plan.payback_days is None else f'{plan.payback_days:.1f} days'}, est. time "
            f"{unknown if plan.seconds is None else f'{plan.seconds:,.0f} s'}, redo "
            f"{unknown if plan.redo_bytes is None else size(plan.redo_bytes)}")
        rows = [(s.position, s.phase, s.label, s.action, s.to_tablespace or "-",
                 "-" if s.kind == "hint" else unknown if s.seconds is None else f"{s.seconds:,.1f} s")
                for s in plan_step_rows(plan_id=plan.pk)]
        self.stdout.write(tabulate(rows, headers=("step", "phase", "segment", "action", "to", "est. time")))

    def _export(self, options: dict[str, Any]) -> None:
        text = plan_export(plan=self._plan(options["plan_id"]), fmt=options["format"])
        if options["output"]:
            options["output"].write_text(text, encoding="utf-8")
            self.stderr.write(f"written to {options['output']}")
        else:
            self.stdout.write(text, ending="")
