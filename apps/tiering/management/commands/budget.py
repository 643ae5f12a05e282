"""`manage.py budget --tier NAME (--gb N | --usd-per-month N) [--format table|json|csv] [--plan | --remember]`.

A fleet budget of one tier split across the enabled targets that have it, by worth per GB
(apps.tiering.budget): per target the GB on the tier now and under the budget, the moves in and out, the
saving per month against today and against the per-target recommendations; fleet totals; the value of the
marginal GB; each eviction's cost against what takes its room, and why the segments holding a place keep it.
``--plan`` also makes the draft plan it implies for each target with moves; ``--plan`` and ``--remember``
remember the split, whose segments then hold their places in the tier's next budget.
"""

from __future__ import annotations

import csv
import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError
from tabulate import tabulate

from apps.core.audit import audit_command, command_actor_name
from apps.tiering.budget.services import BudgetError, budget_run_remember, fleet_budget, fleet_budget_plans

#: Per-target figures, in the order of the CSV's columns (only ever appended).
FIELDS = ("gb_now", "gb_after", "moves_in", "moves_in_gb", "moves_out", "moves_out_gb", "evicted", "evicted_gb",
          "kept", "kept_gb", "kept_not_repaying", "kept_not_repaying_gb", "unknown", "unknown_size_on_tier",
          "saving_usd_per_month", "recommended_saving_usd_per_month", "vs_recommendations_usd_per_month",
          "one_off_usd", "evicted_one_off_usd")


class Command(BaseCommand):
    help = "Split a fleet budget of N GB (or USD per month) of one tier across the targets, by worth per GB."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--tier", required=True, help="the tier's name (tiers are named uniquely)")
        amount = parser.add_mutually_exclusive_group(required=True)
        amount.add_argument("--gb", type=float, help="GB of the tier for the whole fleet")
        amount.add_argument("--usd-per-month", type=float,
                            help="USD a month of the tier, at its price per GB per month in its set's basis")
        parser.add_argument("--format", choices=["table", "json", "csv"], default="table")
        acted = parser.add_mutually_exclusive_group()
        acted.add_argument("--plan", action="store_true",
                           help="make the draft plan it implies for each target (and remember the split)")
        acted.add_argument("--remember", action="store_true",
                           help="remember the split without plans: its segments hold their places in the next budget")

    @audit_command("budget")
    def handle(self, *args: Any, **options: Any) -> None:
        try:
            budget = fleet_budget(tier_name=options["tier"], gb=options["gb"], usd_per_month=options["usd_per_month"])
        except BudgetError as exc:
            raise CommandError(str(exc)) from None
        made = None
        if options["plan"]:
            made = fleet_budget_plans(budget=budget, author=None, author_name=command_actor_name("budget"))
        elif options["remember"]:
            budget_run_remember(budget=budget, author=None, author_name=command_actor_name("budget"),
                                how="remembered on purpose (manage.py budget --remember)")
        getattr(self, f"_{options['format']}")(budget, made)

    def _table(self, budget: Any, made: Any) -> None:
        split = budget.split
        self.stdout.write(f"{budget.source}: {budget.tier.name} at ${budget.usd_per_gb_month:,.4f}/GB-month "
                          f"({budget.tier.tier_set.basis.describe()})")
        headers = ["target", "GB now", "GB after", "in", "in GB", "out", "out GB", "evicted", "kept",
                   "not repaying", "unknown", "saving $/month", "vs recommended"]
        rows = [[r.name, r.gb_now, r.gb_after, r.moves_in, r.moves_in_gb, r.moves_out, r.moves_out_gb, r.evicted,
                 r.kept + r.kept_not_repaying, r.kept_not_repaying, r.unknown, r.saving_usd_per_month,
                 r.vs_recommendations_usd_per_month] for r in split.targets]
        rows.append(["fleet", *(_total(split, field) for field in (
            "gb_now", "gb_after", "moves_in", "moves_in_gb", "moves_out", "moves_out_gb", "evicted")),
            _total(split, "kept") + _total(split, "kept_not_repaying"),
            *(_total(split, field) for field in ("kept_not_repaying", "unknown", "saving_usd_per_month",
                                                 "vs_recommendations_usd_per_month"))])
        self.stdout.write(tabulate(rows, headers=headers, floatfmt=",.2f"))
        for line in _notes(budget):
            self.stdout.write(line)
        for seg in budget.segments(limit=20):
            self.stdout.write(f"  {seg.target}: {seg.label} {seg.outcome} -> {seg.to_tier}, {seg.size_gb:,.2f} GB, "
                              f"{_per_gb(seg.value_usd_per_gb_month)}")
        for eviction in budget.evictions(limit=20):
            self.stdout.write(f"  {eviction.target}: {eviction.label} {eviction.words}")
        for kept in budget.kept(limit=20):
            self.stdout.write(f"  {kept.target}: {kept.label} {kept.words}")
        for line in _made(made):
            self.stdout.write(line)

    def _json(self, budget: Any, made: Any) -> None:
        self.stdout.write(json.dumps(as_dict(budget, made), indent=2))

    def _csv(self, budget: Any, made: Any) -> None:
        writer = csv.writer(self.stdout)
        writer.writerow(["tier", "budget", "target", *FIELDS])
        for result in budget.split.targets:
            writer.writerow([budget.tier.name, budget.capacity.words, result.name,
                             *(round(_field(result, f), 6) for f in FIELDS)])


def _field(result: Any, field: str) -> float:
    return getattr(result, field)


def _total(split: Any, field: str) -> float:
    return sum(_field(result, field) for result in split.targets)


def _per_gb(value: float | None) -> str:
    return "value unknown" if value is None else f"{'-' if value < 0 else ''}${abs(value):,.4f}/GB-month"


def _notes(budget: Any) -> list[str]:
    """What the table does not show: the marginal GB, what was over the budget, the targets left out."""
    split = budget.split
    lines = [f"one more GB would earn {_per_gb(split.marginal_usd_per_gb_month)} (the first segment left out); "
             f"the last taken earns {_per_gb(split.last_taken_usd_per_gb_month)}"]
    if split.forced_over:
        lines.append("what cannot leave the tier is more than the budget on its own: nothing else is placed")
    if budget.left_out:
        lines.append(f"left out (their tier set has no tier {budget.tier.name!r}): {', '.join(budget.left_out)}")
    return lines + [_memory(budget)]


def _memory(budget: Any) -> str:
    """Which budget run's places are held, the margin, and why the places are kept."""
    ex, run = budget.explained, budget.previous
    held = (f"places held: those of the budget of {run.made_at:%Y-%m-%d %H:%M} UTC ({run.capacity.words}, by "
            f"{run.made_by_name}) and the segments on {budget.tier.name} now" if run else
            f"places held: the segments on {budget.tier.name} now (no budget of it remembered yet)")
    kept = ex["kept"]
    return (f"{held}; a challenger needs {ex['margin'] * 100:.0f}% more worth per GB, one-off moves spread over "
            f"{ex['horizon_months']:g} months; kept: {kept['ahead']} ahead, {kept['one_off']} as the exchange "
            f"would not repay, {kept['margin']} within the margin, {kept['room']} with nothing that fits; "
            f"{ex['evictions']} evicted")


def _made(made: Any) -> list[str]:
    if made is None:
        return []
    lines = [f"plan {plan.pk} for {plan.target.name}: {plan.steps_count} steps ({plan.source}), a draft"
             for plan in made.plans]
    lines += [f"no plan for {name}: {why}" for name, why in made.refused]
    return lines or ["no plan: the budget moves nothing"]


def as_dict(budget: Any, made: Any = None) -> dict[str, Any]:
    """The budget as JSON: per target, fleet totals, the marginal GB, the segments, the plans made."""
    split = budget.split
    return {
        "tier": budget.tier.name, "tier_set": budget.tier.tier_set_id, "budget": budget.capacity.words,
        "usd_per_gb_month": budget.usd_per_gb_month, "unit": "USD/month; GB = 2^30 bytes",
        "targets": [{"target": r.name, **{f: _field(r, f) for f in FIELDS}} for r in split.targets],
        "totals": {f: _total(split, f) for f in FIELDS},
        "marginal_usd_per_gb_month": split.marginal_usd_per_gb_month,
        "last_taken_usd_per_gb_month": split.last_taken_usd_per_gb_month,
        "forced_over_budget": split.forced_over, "left_out": list(budget.left_out),
        "segments": [seg.__dict__ for seg in budget.segments()],
        "evictions": [{**e.__dict__, "words": e.words} for e in budget.evictions()],
        "kept": [{**k.__dict__, "words": k.words} for k in budget.kept(reasons=("room", "ahead", "one_off", "margin"))],
        "kept_counts": budget.kept_counts(), "margin": budget.margin, "horizon_months": budget.horizon_months,
        "previous": None if budget.previous is None else {
            "made_at": budget.previous.made_at.isoformat(), "budget": budget.previous.capacity.words,
            "made_by": budget.previous.made_by_name, "how": budget.previous.how,
            "chosen": budget.previous.chosen_count},
        "plans": [] if made is None else [{"plan": p.pk, "target": p.target.name, "steps": p.steps_count,
                                           "source": p.source} for p in made.plans],
        "refused": [] if made is None else [{"target": name, "why": why} for name, why in made.refused],
    }
