"""``manage.py parse_awr_report FILE --format json``: print a parsed AWR report.

A thin shell over :func:`apps.targets.awr_report.parse_report`; it reads the
file and prints JSON, and never touches the database.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from apps.targets.awr_report import MAX_REPORT_BYTES, AwrReportError, parse_report


class Command(BaseCommand):
    help = "Parse an AWR report (HTML or text) and print it as JSON, without using the database."

    requires_system_checks: list[str] = []
    requires_migrations_checks = False

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path, help="AWR report written by awrrpt.sql / awrrpti.sql / awrgrpt.sql / awrddrpt.sql / awrddrpi.sql")
        parser.add_argument("--format", choices=["json"], default="json", help="output format")

    def handle(self, *args: Any, **options: Any) -> None:
        path: Path = options["file"]
        try:
            with path.open("rb") as handle:
                # Read one byte past the limit so parse_report can refuse oversize files.
                data = handle.read(MAX_REPORT_BYTES + 1)
        except OSError as error:
            raise CommandError(f"{path}: cannot read ({error.strerror or error})") from error
        try:
            report = parse_report(data, filename=str(path))
        except AwrReportError as error:
            raise CommandError(str(error)) from error
        self.stdout.write(json.dumps(report.to_json_dict(), indent=2, ensure_ascii=False))
