"""The admin user of a first run (the rest of the set-up is apps.dashboard.bootstrap)."""

from __future__ import annotations

import os
import secrets
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model

ADMIN_CREDENTIALS_FILE = "admin-credentials"


def _credentials_path() -> Path:
    # The stack's data directory (scripts/dev/stack.sh: TIERSCOPE_DATA_DIR), so a second stack never
    # writes over the first one's login.
    data = os.environ.get("TIERSCOPE_DATA_DIR") or Path(settings.BASE_DIR) / ".data"
    return Path(data) / ADMIN_CREDENTIALS_FILE


def bootstrap_admin() -> list[str]:
    """Create the admin user once; a generated password is printed once and kept in .data (0600)."""
    username = os.environ.get("TIERSCOPE_ADMIN_USER") or "admin"
    User = get_user_model()
    if User.objects.filter(username=username).exists():
        return []
    password = os.environ.get("TIERSCOPE_ADMIN_PASSWORD") or secrets.token_urlsafe(12)
    User.objects.create_superuser(username=username, email="", password=password)
    lines = [f"created admin user {username!r}"]
    if not os.environ.get("TIERSCOPE_ADMIN_PASSWORD"):
        path = _credentials_path()
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"{username}\n{password}\n", encoding="utf-8")
        path.chmod(0o600)
        lines.append(f"  password: {password}   (printed once; also kept in {path})")
    return lines


def bootstrap_login_line() -> str:
    username = os.environ.get("TIERSCOPE_ADMIN_USER") or "admin"
    path = _credentials_path()
    if os.environ.get("TIERSCOPE_ADMIN_PASSWORD"):
        return f"login: {username} / (TIERSCOPE_ADMIN_PASSWORD)"
    if path.is_file():
        stored_user, stored_password = path.read_text(encoding="utf-8").split("\n")[:2]
        if stored_user == username:
            return f"login: {username} / {stored_password}"
    return f"login: {username} (password set earlier)"
