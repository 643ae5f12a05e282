"""System checks with stable ids; each has a test in tests/core/test_checks.py."""

from __future__ import annotations

from typing import Any

from cryptography.fernet import Fernet
from django.conf import settings
from django.core.checks import Error, register


@register()
def check_time_zone(app_configs: Any = None, **kwargs: Any) -> list[Error]:
    """core.E001: every timestamp is stored and computed in UTC."""
    if settings.TIME_ZONE != "UTC" or not settings.USE_TZ:
        return [Error("TIME_ZONE must be 'UTC' with USE_TZ = True.", id="core.E001")]
    return []


@register()
def check_fernet_key(app_configs: Any = None, **kwargs: Any) -> list[Error]:
    """core.E002: the key that encrypts target passwords must be a valid Fernet key."""
    try:
        Fernet(settings.TIERSCOPE_FERNET_KEY)
    except (ValueError, TypeError):
        return [
            Error(
                "TIERSCOPE_FERNET_KEY is not a valid Fernet key (32 url-safe base64-encoded bytes).",
                hint="Generate one with: python -c 'from cryptography.fernet import Fernet; print(Fernet.generate_key().decode())'",
                id="core.E002",
            )
        ]
    return []
