"""System checks of the API token settings; each has a test in tests/apitokens/test_checks.py."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.checks import Error, register


@register()
def check_api_token_settings(app_configs: Any = None, **kwargs: Any) -> list[Error]:
    """apitokens.E001: expiry days, failure limit and cool-off are positive, and the default expiry is allowed."""
    days, max_days = settings.TIERSCOPE_API_TOKEN_DAYS, settings.TIERSCOPE_API_TOKEN_MAX_DAYS
    errors = []
    if not 1 <= days <= max_days:
        errors.append(f"TIERSCOPE_API_TOKEN_DAYS={days} must be 1 to TIERSCOPE_API_TOKEN_MAX_DAYS ({max_days}).")
    for name in ("TIERSCOPE_API_TOKEN_FAILURE_LIMIT", "TIERSCOPE_API_TOKEN_COOLOFF_S"):
        if getattr(settings, name) < 1:
            errors.append(f"{name}={getattr(settings, name)} must be at least 1.")
    return [Error(message, id="apitokens.E001") for message in errors]
