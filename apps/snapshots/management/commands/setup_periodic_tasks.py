from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from apps.snapshots.services import schedule_install


class Command(BaseCommand):
    help = "Write the beat schedule from config/settings/celery.py into the database (idempotent)."

    def handle(self, *args: Any, **options: Any) -> None:
        for line in schedule_install() or ["schedule already installed"]:
            self.stdout.write(line)
