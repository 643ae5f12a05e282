"""`manage.py recommend <target> --format table|csv|json`: the rows of the CSV download."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError


class Command(BaseCommand):
    help = "Print a target's current recommendations (same rows as the CSV download)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("target")
        parser.add_argument("--format", choices=["table", "csv", "json"], default="table")

    def handle(self, *args: Any, **options: Any) -> None:
        from apps.targets.models import Target
        from apps.tiering.export import export_csv_parts, export_json, export_rows, export_table
        from apps.tiering.selectors import recommendation_list

        try:
            target = Target.objects.get(name=options["target"])
        except Target.DoesNotExist:
            raise CommandError(f"No target named {options['target']!r}.") from None
        recs = recommendation_list(target_id=target.id)
        if options["format"] == "csv":
            for part in export_csv_parts(recs, target):
                self.stdout.write(part, ending="")
            return
        render = {"table": export_table, "json": export_json}[options["format"]]
        self.stdout.write(render(export_rows(recs, target)))
