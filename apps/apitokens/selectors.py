"""Reads of API tokens, for the page and the command."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from apps.apitokens.models import ApiToken


def token_list(*, user: Any) -> QuerySet[ApiToken]:
    """The user's tokens, revoked and expired ones too, newest first."""
    return ApiToken.objects.filter(user=user).order_by("-created_at", "-pk")


def token_get_live(*, user: Any, name: str) -> ApiToken | None:
    """The user's token named ``name`` that is not revoked (at most one: a constraint says so)."""
    return ApiToken.objects.filter(user=user, name=name, revoked_at__isnull=True).first()
