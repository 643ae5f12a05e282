"""`manage.py generate_fleet --targets N --segments M --days D [--seed S] [--prefix NAME]`.

Builds a fleet of generated targets (PREFIX-001 .. PREFIX-N) through the collection path: hourly snapshots of
the last D days, M segments each, sizes and IO skew varied per target (apps.tiering.demo_fleet).
Re-running extends each target by the hours since its last snapshot, or says it is up to date."""

from __future__ import annotations

import math
from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from apps.core.audit import audit_command, audit_event_record
from apps.targets.models import Target
from apps.tiering.demo_fleet import FleetError, fleet_plan, fleet_target_generate


class Command(BaseCommand):
    help = "Generate a fleet of targets with hourly statistics, stored as a collection stores them."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--targets", type=int, required=True, help="how many targets")
        parser.add_argument("--segments", type=int, required=True, help="segments per target")
        parser.add_argument("--days", type=int, required=True, help="days of hourly snapshots, up to the last hour")
        parser.add_argument("--seed", type=int, default=42, help="seed of the first target (the next: seed+1, ...)")
        parser.add_argument("--prefix", default="fleet", help="target names: PREFIX-001, PREFIX-002, ...")

    @audit_command("generate_fleet")
    def handle(self, *args: Any, **options: Any) -> None:
        try:
            plans = fleet_plan(targets=options["targets"], segments=options["segments"], days=options["days"],
                               seed=options["seed"], prefix=options["prefix"], now=timezone.now())
        except FleetError as exc:
            raise CommandError(str(exc)) from None
        total_rows = 0
        for plan in plans:
            if plan.exists and not plan.hours:
                self.stdout.write(f"{plan.name}: exists and is up to date (nothing to add)")
                continue
            what = "extending" if plan.exists else "creating"
            self.stdout.write(f"{plan.name}: {what}, {plan.segments:,} segments x {plan.hours} hours "
                              f"(seed {plan.seed}, median segment {math.exp(plan.profile.size_log_mean) / 2**30:.1f} "
                              f"GB, IO skew {plan.profile.skew_sigma})")
            result = fleet_target_generate(plan, progress=lambda line: self.stdout.write(f"  {line}"))
            total_rows += result.rows_added
            target = Target.objects.get(name=plan.name)
            audit_event_record(actor=None, action="generate_fleet", target=target,
                               outcome=f"{result.snapshots_added} snapshots, {result.rows_added} segment-stat rows")
            self.stdout.write(f"{plan.name}: {result.snapshots_added} snapshots, {result.rows_added:,} segment-stat "
                              f"rows in {result.seconds:.1f} s")
        self.stdout.write(f"fleet {options['prefix']}: {len(plans)} targets, {total_rows:,} segment-stat rows added")
