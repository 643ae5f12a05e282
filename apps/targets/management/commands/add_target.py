"""`manage.py add_target --name N --dsn host:port/service --user U --mode awr|nopack --password-stdin`.

It says how the new target is fed: beat's collections (demo, awr, nopack) or imports (report)."""

from __future__ import annotations

import sys
from typing import Any

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from apps.core.audit import audit_command, audit_event_record
from apps.targets.feeding import feeding_explanation
from apps.targets.services import target_create


class Command(BaseCommand):
    help = "Add a target. The password is read from standard input, never from the command line."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--name", required=True)
        parser.add_argument("--dsn", default="", help="host:port/service_name")
        parser.add_argument("--user", default="")
        parser.add_argument("--mode", required=True, choices=["awr", "nopack", "demo", "report"])
        parser.add_argument("--interval", type=int, default=60, help="minutes between collections (default 60)")
        parser.add_argument("--password-stdin", action="store_true", help="read the password from standard input")

    @audit_command("add_target")
    def handle(self, *args: Any, **options: Any) -> None:
        password = ""
        if options["password_stdin"]:
            password = sys.stdin.readline().rstrip("\r\n")
            if not password:
                raise CommandError("--password-stdin given but standard input had no password.")
        try:
            target = target_create(
                name=options["name"], mode=options["mode"], dsn=options["dsn"], username=options["user"],
                password=password, interval_minutes=options["interval"],
            )
        except ValidationError as exc:
            raise CommandError("; ".join(_messages(exc))) from None
        audit_event_record(actor=None, action="add_target", target=target, outcome=f"added ({target.mode})")
        self.stdout.write(f"added target {target.name!r} ({target.mode}); {feeding_explanation(target)}")


def _messages(exc: ValidationError) -> list[str]:
    if hasattr(exc, "message_dict"):
        return [f"{field}: {' '.join(msgs)}" for field, msgs in exc.message_dict.items()]
    return list(exc.messages)
