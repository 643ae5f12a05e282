"""``manage.py calibration FILE``: a fio, ORION or CALIBRATE_IO result's tier figures; with ``--tier``,
stored beside that tier (setting its device IOPS and read latency).

Without ``--tier`` it reads only the file: no database, no migrations check, no system checks. A file we
cannot read exits non-zero with one line on stderr naming it and what is wrong.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from apps.core.audit import audit_command
from apps.tiering.calibration import FIGURE_KEYS, CalibrationError, CalibrationReading, calibration_read
from apps.tiering.calibration.selectors import tier_set_target_names
from apps.tiering.calibration.services import tier_calibration_store
from apps.tiering.models import Tier


def _table(reading: CalibrationReading) -> str:
    figures = reading.figures.as_dict()
    figures["measured_at"] = reading.measured_at.isoformat() if reading.measured_at else None
    width = max(len(key) for key in figures)
    return "".join(f"{key:<{width}}  {'—' if value is None else value}\n" for key, value in figures.items())


class Command(BaseCommand):
    help = "Read a calibration file (fio JSON, ORION output, CALIBRATE_IO result); --tier stores it on a tier."
    # Reading a file needs no database: Django must not check migrations or run system checks first.
    requires_migrations_checks = False
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path, help="fio --output-format=json output, an ORION summary or "
                                                    "matrix, or a CALIBRATE_IO result")
        parser.add_argument("--format", choices=["json", "table"], default="table", dest="output_format")
        parser.add_argument("--tier", help="store the measurement beside this tier and set its figures")
        parser.add_argument("--tier-set", dest="tier_set", help="the tier's set (checked when given)")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            data, reading = calibration_read(options["file"])
        except CalibrationError as error:
            raise CommandError(str(error)) from None
        if options["output_format"] == "json":
            # Exactly the figure keys; when it was measured is for --tier and the table.
            self.stdout.write(json.dumps({key: reading.figures.as_dict()[key] for key in FIGURE_KEYS}, indent=2))
        else:
            self.stdout.write(_table(reading), ending="")
        if options["tier"]:
            self._store(data=data, reading=reading, **options)

    def _store(self, *, data: bytes, reading: CalibrationReading, **options: Any) -> None:
        audit_command("calibration")(Command._store_audited)(self, data=data, reading=reading, **options)

    def _store_audited(self, *, data: bytes, reading: CalibrationReading, **options: Any) -> None:
        tiers = Tier.objects.filter(name=options["tier"])
        if options["tier_set"]:
            tiers = tiers.filter(tier_set_id=options["tier_set"])
        tier = tiers.first()
        if tier is None:
            where = f" in set {options['tier_set']!r}" if options["tier_set"] else ""
            raise CommandError(f"{options['file']}: no tier {options['tier']!r}{where}")
        outcome = tier_calibration_store(tier_id=tier.id, reading=reading, file_name=options["file"].name, data=data)
        targets = tier_set_target_names(tier_set_id=tier.tier_set_id)
        self.stderr.write(f"Stored on tier {tier.name}. {outcome.summary()}")
        if targets and outcome.changed:
            self.stderr.write(f"Recommendations of {', '.join(targets)} use it from their next collection or "
                              "import, or now with Recompute on each target's page.")
