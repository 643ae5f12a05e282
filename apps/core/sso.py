"""OpenID Connect sign-in (django-allauth): users come from the providers only, with the role their groups give.

Role mapping (docs/sso.md): a member of one of the provider's admin groups is an admin (is_staff, and
superuser as the bootstrap admin is), anyone else a viewer. When viewer groups are set, membership of an
admin or a viewer group is required and anyone else is refused. The role follows the provider at every
sign-in. Local accounts never sign up through allauth: they are made by an admin, as before.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any, NoReturn

from allauth.account.adapter import DefaultAccountAdapter
from allauth.core.exceptions import ImmediateHttpResponse
from allauth.socialaccount.adapter import DefaultSocialAccountAdapter
from django.conf import settings
from django.shortcuts import render

log = logging.getLogger(__name__)

MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"


def claimed_groups(data: dict, claim: str) -> set[str]:
    """The group names in ``claim`` of the provider's user data: a list of names, or one name."""
    value = data.get(claim)
    if isinstance(value, str):
        return {value}
    if isinstance(value, list):
        return {item for item in value if isinstance(item, str)}
    return set()


def role_for(provider: Mapping[str, Any], groups: set[str]) -> str | None:
    """``"admin"``, ``"viewer"``, or None when viewer groups are required and none is held."""
    if groups & set(provider["admin_groups"]):
        return "admin"
    if provider["viewer_groups"] and not groups & set(provider["viewer_groups"]):
        return None
    return "viewer"


def claim_source(extra_data: dict, claim: str) -> dict:
    """Where allauth kept ``claim`` for an OpenID Connect account: the userinfo answer when it has it, else
    the ID token (Entra ID puts groups in the ID token only), else whatever allauth kept."""
    for source in (extra_data.get("userinfo"), extra_data.get("id_token")):
        if isinstance(source, dict) and claim in source:
            return source
    return extra_data.get("userinfo") or extra_data.get("id_token") or extra_data


class LocalAccountAdapter(DefaultAccountAdapter):
    """No sign-up form for local accounts: admins make them (admin pages, `createsuperuser`)."""

    def is_open_for_signup(self, request) -> bool:
        return False

    def login(self, request, user) -> None:
        if not hasattr(user, "backend"):
            user.backend = MODEL_BACKEND  # a session users' rows are read back with, whatever backend is first
        super().login(request, user)


class DirectoryAccountAdapter(DefaultSocialAccountAdapter):
    """Signs a provider's user up automatically and sets their role from the groups claim at every sign-in."""

    def is_open_for_signup(self, request, sociallogin) -> bool:
        return True

    def is_auto_signup_allowed(self, request, sociallogin) -> bool:
        return True

    def pre_social_login(self, request, sociallogin) -> None:
        account = sociallogin.account
        provider = settings.TIERSCOPE_OIDC.get(account.provider)
        if provider is None:  # a provider removed from the configuration since: nothing maps its users
            self._refuse(request, account.provider, "this provider is no longer configured")
        groups = claimed_groups(claim_source(account.extra_data, provider["claim"]), provider["claim"])
        role = role_for(provider, groups)
        if role is None:
            log.warning("sso: %s user %s refused: in none of the groups %s (claim %r)", provider["id"],
                        account.uid, ", ".join(provider["admin_groups"] + provider["viewer_groups"]),
                        provider["claim"])
            self._refuse(request, provider["name"], "your account is in none of the groups allowed to use tierscope")
        user = sociallogin.user
        user.is_staff = user.is_superuser = role == "admin"
        if sociallogin.is_existing:
            user.save(update_fields=["is_staff", "is_superuser"])

    def on_authentication_error(self, request, provider, error=None, exception=None, extra_context=None) -> None:
        # allauth shows the user a page without the reason: the log has it (docs/sso.md, Troubleshooting).
        app = getattr(provider, "app", None)
        name = getattr(app, "provider_id", None) or getattr(provider, "id", provider)
        log.warning("sso: sign-in with %s failed: %s%s", name, error,
                    f" ({exception.__class__.__name__}: {exception})" if exception else "")
        super().on_authentication_error(request, provider, error=error, exception=exception,
                                        extra_context=extra_context)

    def _refuse(self, request, provider_name: str, reason: str) -> NoReturn:
        response = render(request, "registration/sso_refused.html", {"provider": provider_name, "reason": reason},
                          status=403)
        raise ImmediateHttpResponse(response)
