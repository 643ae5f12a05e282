"""`manage.py collect <target>`: the same collection the scheduler runs, in the foreground."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from apps.snapshots.models import CollectionRun
from apps.targets.models import Target


class Command(BaseCommand):
    help = "Collect one target now (same code path as the scheduled task)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("target", help="target name")

    def handle(self, *args: Any, **options: Any) -> None:
        from apps.snapshots.services import CollectRetryable, snapshot_collect

        try:
            target = Target.objects.get(name=options["target"])
        except Target.DoesNotExist:
            names = ", ".join(Target.objects.values_list("name", flat=True)) or "none"
            raise CommandError(f"No target named {options['target']!r} (known: {names}).") from None
        run_id = None
        while True:
            try:
                run = snapshot_collect(target_id=target.id, run_id=run_id, trigger="command")
                break
            except CollectRetryable as exc:
                # Same bounded policy as the task; the service stops retrying after COLLECT_MAX_RETRIES.
                self.stderr.write(f"{target.name}: {exc} — retrying")
                run_id = exc.run_id
                time.sleep(min(2 ** CollectionRun.objects.get(pk=run_id).attempts, 10))
        if run.status != CollectionRun.Status.SUCCEEDED:
            raise CommandError(f"{target.name}: collection {run.status}: {run.error}")
        self.stdout.write(
            f"{target.name}: {run.snapshots_added} snapshots, {run.rows_added} rows added in {run.duration_s:.1f} s"
        )
