"""``manage.py import_awr_report FILE --target NAME [--sizes segments.csv]``: a thin shell over report_import."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from apps.core.audit import audit_command
from apps.snapshots.imports import ImportRefused, report_import
from apps.snapshots.management.commands.import_extract import (
    REPORT_TARGET_MISSING,
    add_target_argument,
    read_bounded,
    report_run,
)
from apps.targets.management.lookups import target_named


class Command(BaseCommand):
    help = ("Import an AWR report (HTML or text: awrrpt.sql, awrrpti.sql, the RAC-wide awrgrpt.sql, or a compare-period "
            "report of awrddrpt.sql / awrddrpi.sql) into a target.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path, help="AWR report written by awrrpt.sql / awrrpti.sql / awrgrpt.sql / awrddrpt.sql / awrddrpi.sql")
        add_target_argument(parser)
        parser.add_argument("--sizes", type=Path, help="segments.csv of an offline extract: segment sizes")

    @audit_command("import_awr_report")
    def handle(self, *args: Any, **options: Any) -> None:
        target = target_named(options["target"], missing=REPORT_TARGET_MISSING)
        path: Path = options["file"]
        sizes_path: Path | None = options["sizes"]
        data = read_bounded(path)
        sizes = read_bounded(sizes_path) if sizes_path else None
        try:
            run = report_import(target=target, data=data, filename=path.name, sizes=sizes,
                                sizes_filename=sizes_path.name if sizes_path else "segments.csv")
        except ImportRefused as error:
            raise CommandError(str(error)) from None
        report_run(self.stdout, run, action="import_awr_report", target=target, what=path.name)
