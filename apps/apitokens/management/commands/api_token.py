"""`manage.py api_token USER --name N [--expires-days D]`, `--revoke N`, `--list`: a user's API tokens.

The new key is the only thing written to standard output (``KEY=$(manage.py api_token vera --name ci)``);
what was made is said on standard error.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone
from tabulate import tabulate

from apps.apitokens import selectors
from apps.apitokens.services import token_create, token_revoke
from apps.core.audit import audit_command


class Command(BaseCommand):
    help = ("Make an API token for a user and print its key (shown this once), revoke one of the user's tokens "
            "by name, or list them.")

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("user", help="the username whose token it is; the API treats its requests as this user's")
        action = parser.add_mutually_exclusive_group(required=True)
        action.add_argument("--name", help="make a token with this name (what it is for)")
        action.add_argument("--revoke", metavar="NAME", help="revoke the user's token with this name")
        action.add_argument("--list", action="store_true", help="list the user's tokens, revoked and expired ones too")
        parser.add_argument("--expires-days", type=int, metavar="D",
                            help="with --name: days until the key expires (default TIERSCOPE_API_TOKEN_DAYS, 90; "
                                 "at most TIERSCOPE_API_TOKEN_MAX_DAYS, 365)")

    @audit_command("api_token")
    def handle(self, *args: Any, **options: Any) -> None:
        user = _user(options["user"])
        if options["expires_days"] is not None and not options["name"]:
            raise CommandError("--expires-days goes with --name (it is the new token's expiry).")
        if options["list"]:
            self._list(user)
        elif options["revoke"]:
            self._revoke(user, options["revoke"])
        else:
            self._create(user, options["name"], options["expires_days"])

    def _create(self, user: Any, name: str, days: int | None) -> None:
        try:
            created = token_create(user=user, name=name, expires_days=days, now=timezone.now())
        except ValidationError as exc:
            raise CommandError(" ".join(exc.messages)) from None
        token = created.token
        self.stderr.write(f"made API token {token.name!r} of {user.get_username()}, expires "
                          f"{token.expires_at:%Y-%m-%d %H:%M} UTC; its key, shown only now:")
        self.stdout.write(created.key)

    def _revoke(self, user: Any, name: str) -> None:
        token = selectors.token_get_live(user=user, name=name)
        if token is None:
            raise CommandError(f"{user.get_username()} has no unrevoked API token named {name!r} (--list shows "
                               f"their tokens).")
        token_revoke(token=token, now=timezone.now())
        self.stdout.write(f"revoked API token {token.name!r} (tsk_{token.prefix}_…) of {user.get_username()}")

    def _list(self, user: Any) -> None:
        now = timezone.now()
        rows = [[token.name, f"tsk_{token.prefix}_…", f"{token.created_at:%Y-%m-%d %H:%M}",
                 f"{token.expires_at:%Y-%m-%d %H:%M}",
                 f"{token.last_used_at:%Y-%m-%d %H:%M} from {token.last_used_address or 'unknown'}"
                 if token.last_used_at else "never", token.state(now)]
                for token in selectors.token_list(user=user)]
        if not rows:
            self.stdout.write(f"{user.get_username()} has no API token.")
            return
        self.stdout.write(tabulate(rows, headers=["name", "key", "created (UTC)", "expires (UTC)", "last used",
                                                  "state"]))


def _user(username: str) -> Any:
    try:
        return get_user_model().objects.get(username=username)
    except get_user_model().DoesNotExist:
        raise CommandError(f"No user named {username!r}.") from None
