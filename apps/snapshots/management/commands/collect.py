"""`manage.py collect <target>`: the same collection the scheduler runs, in the foreground."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from apps.snapshots.models import CollectionRun
from apps.targets.base import SourceError
from apps.targets.models import Target


class Command(BaseCommand):
    help = "Collect one target now (same code path as the scheduled task)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("target", help="target name")

    def handle(self, *args: Any, **options: Any) -> None:
        from apps.snapshots.services import snapshot_collect

        try:
            target = Target.objects.get(name=options["target"])
        except Target.DoesNotExist:
            names = ", ".join(Target.objects.values_list("name", flat=True)) or "none"
            raise CommandError(f"No target named {options['target']!r} (known: {names}).") from None
        try:
            run = snapshot_collect(target_id=target.id, trigger="command")
        except SourceError as exc:
            raise CommandError(f"{target.name}: {exc} (transient; try again later)") from None
        if run.status != CollectionRun.Status.SUCCEEDED:
            raise CommandError(f"{target.name}: collection {run.status}: {run.error}")
        self.stdout.write(
            f"{target.name}: {run.snapshots_added} snapshots, {run.rows_added} rows added in {run.duration_s:.1f} s"
        )
