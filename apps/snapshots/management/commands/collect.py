"""`manage.py collect <target>`: the same collection the scheduler runs, in the foreground.

What the collection queues once it has committed (the refresh of the recommendations, the next
day's window base) runs here too, before the command returns, so a script can read the
recommendations next; no worker or broker is needed.
"""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from apps.core.config import get_config
from apps.snapshots.models import CollectionRun
from apps.snapshots.services import CollectRetryable, snapshot_collect
from apps.targets.feeding import not_collected_message
from apps.targets.models import Target
from config.celery import app


class Command(BaseCommand):
    help = "Collect one target now (same code path as the scheduled task)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("target", help="target name")

    def handle(self, *args: Any, **options: Any) -> None:
        app.conf.task_always_eager = True  # this process runs what the collection queues, in the foreground

        try:
            target = Target.objects.get(name=options["target"])
        except Target.DoesNotExist:
            names = ", ".join(Target.objects.values_list("name", flat=True)) or "none"
            raise CommandError(f"No target named {options['target']!r} (known: {names}).") from None
        if not target.is_live:  # before any run is recorded: nothing to collect from
            raise CommandError(not_collected_message(target))
        # Bounded: at most COLLECT_MAX_RETRIES + 1 attempts (the service's own policy), each bounded by
        # the Oracle connect/call/whole-run limits, with at most 10 s between them.
        attempts = get_config()["COLLECT_MAX_RETRIES"] + 1
        run_id = None
        for attempt in range(1, attempts + 1):
            try:
                run = snapshot_collect(target_id=target.id, run_id=run_id, trigger="command")
                break
            except CollectRetryable as exc:
                if attempt == attempts:
                    raise CommandError(f"{target.name}: {exc} — gave up after {attempts} attempts") from None
                self.stderr.write(f"{target.name}: {exc} — retrying")
                run_id = exc.run_id
                time.sleep(min(2 ** attempt, 10))
        if run.status != CollectionRun.Status.SUCCEEDED:
            raise CommandError(f"{target.name}: collection {run.status}: {run.error}")
        self.stdout.write(
            f"{target.name}: {run.snapshots_added} snapshots, {run.rows_added} rows added in {run.duration_s:.1f} s"
        )
        for line in run_after_notes(run):
            self.stdout.write(line)


def run_after_notes(run: CollectionRun) -> list[str]:
    """What the run's notes say (a new DBID), for the terminal."""
    return [f"  note: {note}" for note in run.notes.splitlines() if note]
