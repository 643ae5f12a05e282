"""The admin user of a first run (the rest of the set-up is apps.dashboard.bootstrap)."""

from __future__ import annotations

import secrets
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model

ADMIN_CREDENTIALS_FILE = "admin-credentials"  # no longer written: see bootstrap_admin


def _credentials_path() -> Path:
    # Where earlier versions kept the password, in the stack's data directory (TIERSCOPE_DATA_DIR);
    # read only to remove it.
    return Path(settings.TIERSCOPE_DATA_DIR) / ADMIN_CREDENTIALS_FILE


def bootstrap_admin() -> list[str]:
    """Create the admin user once; a generated password is printed then, and never kept or shown again.

    The printed line is the only copy: a password on disk, re-printed by every `make run`, is one more
    place to read it from (issue 14). Lost, it is reset with `manage.py changepassword`.
    """
    username = _admin_username()
    User = get_user_model()
    if User.objects.filter(username=username).exists():
        return _forget_stored_password()
    password = settings.TIERSCOPE_ADMIN_PASSWORD or secrets.token_urlsafe(12)
    User.objects.create_superuser(username=username, email="", password=password)
    lines = [f"created admin user {username!r}"]
    if not settings.TIERSCOPE_ADMIN_PASSWORD:
        lines.append(f"  password: {password}   (printed this once and kept nowhere: note it now; "
                     f"reset with manage.py changepassword {username})")
    return lines


def _forget_stored_password() -> list[str]:
    # Earlier versions kept the generated password in <data>/admin-credentials and printed it on every run.
    path = _credentials_path()
    if not path.is_file():
        return []
    path.unlink()
    return [f"removed {path}: the admin password is no longer kept on disk"]


def _admin_username() -> str:
    return settings.TIERSCOPE_ADMIN_USER or "admin"


def bootstrap_login_line() -> str:
    """The login hint `make run` prints when the stack is up; never the password itself."""
    username = _admin_username()
    if settings.TIERSCOPE_ADMIN_PASSWORD:
        return f"login: {username} / (TIERSCOPE_ADMIN_PASSWORD)"
    return f"login: {username} (password printed when it was created; reset with manage.py changepassword {username})"
