"""`manage.py recommend <target> [--refresh] --format table|csv|json`: the rows of the CSV download.

``--refresh`` first recomputes the recommendations from the snapshots stored (after a tablespace map or
tier change; every mode, report targets included), in the foreground, and says what it did.

A target with no recommendations computed yet (an import just made, its refresh still queued) prints
no rows: the command says why on stderr (a refresh queued when, or failed, or none) and what to run,
and exits with status 3, so a script never reads an empty table as "nothing to move". That is a state,
not a failure of the command: a script polling until the rows are ready leaves no "failed" entries in
the audit log.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from apps.core.audit import audit_command, audit_event_record
from apps.targets.management.lookups import target_named
from apps.tiering.recommendations.export import export_csv_parts, export_json_parts, export_rows, export_table
from apps.tiering.recommendations.readiness import recommendations_missing
from apps.tiering.recommendations.refreshes import refresh_now
from apps.tiering.recommendations.selectors import (
    recommendation_changes,
    recommendation_decisions,
    recommendation_list,
    recommendation_run_current,
    recommendation_window,
)

#: Exit status when the target has no recommendations computed (not an error of the command's use).
NOT_COMPUTED = 3


class Command(BaseCommand):
    help = "Print a target's current recommendations (same rows as the CSV download); --refresh recomputes them first."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("target")
        parser.add_argument("--format", choices=["table", "csv", "json"], default=None,
                            help="print the rows (default table; with --refresh, only when given)")
        parser.add_argument("--refresh", action="store_true",
                            help="recompute from the stored snapshots first (after a tablespace map or tier change)")

    @audit_command("recommend")
    def handle(self, *args: Any, **options: Any) -> None:
        target = target_named(options["target"])
        if options["refresh"]:
            self._refresh(target)
            if options["format"] is None:
                return
        if recommendation_run_current(target_id=target.id) is None:
            self.stderr.write(recommendations_missing(target=target))
            raise SystemExit(NOT_COMPUTED)  # not an Exception: audit_command records no failure
        recs = recommendation_list(target_id=target.id)
        if options["format"] in ("csv", "json"):  # streamed: memory holds one part of the rows
            parts = export_csv_parts if options["format"] == "csv" else export_json_parts
            for part in parts(recs, target):
                self.stdout.write(part, ending="")
            if options["format"] == "json":
                self.stdout.write("")  # the newline the whole document was printed with
            return
        self.stdout.write(export_table(export_rows(recs, target)))

    def _refresh(self, target: Any) -> None:
        before = recommendation_decisions(target_id=target.id)
        refresh = refresh_now(target_id=target.id)
        if refresh.status != refresh.Status.SUCCEEDED:
            audit_event_record(actor=None, action="recommend --refresh", target=target, outcome=f"failed: {refresh.error}")
            raise CommandError(f"{target.name}: recompute failed: {refresh.error}")
        changes = recommendation_changes(before, recommendation_decisions(target_id=target.id))
        summary = (f"{target.name}: recomputed from the stored snapshots in {refresh.duration_s:.1f} s: "
                   f"{refresh.recommendations} recommendations; {changes}.")
        self.stdout.write(summary)
        window = recommendation_window(run=recommendation_run_current(target_id=target.id))
        self.stdout.write(f"  figures: {window.detail if window else 'none computed (no tiers in its tier set?)'}")
        audit_event_record(actor=None, action="recommend --refresh", target=target, outcome=summary)

