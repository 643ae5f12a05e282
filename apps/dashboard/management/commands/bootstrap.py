"""Idempotent first-run set-up used by `make run`: admin user, tiers, demo target, schedule."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from apps.core.services import bootstrap_login_line
from apps.dashboard.bootstrap import bootstrap_run


class Command(BaseCommand):
    help = ("Create the admin user (its generated password printed this once), the tier presets, the demo target "
            "and the beat schedule (idempotent).")

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--print-login", action="store_true", help="only print the login line (the user, never the password)")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["print_login"]:
            self.stdout.write(bootstrap_login_line())
            return
        for line in bootstrap_run():
            self.stdout.write(line)
