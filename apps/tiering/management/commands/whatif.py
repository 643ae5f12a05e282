"""``manage.py whatif``: price a tier set for a list of objects, no database needed.

A thin shell over :func:`apps.tiering.whatif.whatif_run`; see that module for
the input files and the output formats.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from apps.tiering.costmodel import DEFAULT_AMORTISATION_MONTHS
from apps.tiering.whatif import OUTPUT_FORMATS, WhatIfError, whatif_run


class Command(BaseCommand):
    help = "Cost each object on each tier and compare placements (tiers JSON + objects CSV in)."
    # Pure computation on two files: no migrations or system checks needed.
    requires_migrations_checks = False
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--tiers", required=True, help="TIERS.json: a list of tiers")
        parser.add_argument("--objects", required=True, help="OBJECTS.csv with the header name,iops,gb")
        parser.add_argument("--format", choices=OUTPUT_FORMATS, default="table", dest="output_format")
        parser.add_argument(
            "--time-limit", type=float, default=30.0, dest="time_limit_s",
            help="seconds the MILP solver may spend on the optimized placement (default 30)",
        )
        parser.add_argument(
            "--amortisation-months", type=int, default=DEFAULT_AMORTISATION_MONTHS, dest="amortisation_months",
            help="months a purchase price is spread over for its monthly figure (default 60)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            output = whatif_run(
                tiers_path=options["tiers"],
                objects_path=options["objects"],
                output_format=options["output_format"],
                time_limit_s=options["time_limit_s"],
                amortisation_months=options["amortisation_months"],
            )
        except WhatIfError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(output, ending="")
