"""DRF authentication by API token: ``Authorization: Bearer tsk_<prefix>_<secret>``.

The request then is its token's user, with that user's role: a viewer's token reads what a viewer may read,
and admin-only views (``is_staff``) refuse it, as the pages do. A refused key is a 401 that says why
(malformed, unknown, revoked, expired, deactivated user); an address locked out for presenting bad keys
(apps.apitokens.throttle) gets a 429 with Retry-After, whatever key it presents.
"""

from __future__ import annotations

import logging
from typing import Any

from auditlog.context import auditlog_value
from django.conf import settings
from django.utils import timezone
from rest_framework import exceptions
from rest_framework.authentication import BaseAuthentication, get_authorization_header
from rest_framework.request import Request

from apps.apitokens import throttle
from apps.apitokens.services import TokenRefused, token_authenticate
from apps.core.audit import audit_event_record
from apps.core.clientip import client_ip

logger = logging.getLogger(__name__)

KEYWORD = "Bearer"


class LockedOut(exceptions.Throttled):
    """429 with Retry-After (DRF's exception handler sets the header from ``wait``)."""

    default_detail = "Too many bad API tokens from this address."
    default_code = "api_token_lockout"


class ApiTokenAuthentication(BaseAuthentication):
    """Returns ``(user, token)`` for a valid key; None when the request carries no Bearer credentials."""

    def authenticate(self, request: Request) -> tuple[Any, Any] | None:
        header = get_authorization_header(request).split()
        if not header or header[0].lower() != KEYWORD.lower().encode():
            return None  # not ours: session authentication (or none) decides
        address = client_ip(request._request) or "unknown"
        remaining_s = throttle.lockout_remaining_s(address)
        if remaining_s:
            logger.warning("API token refused from %s: locked out for another %d s", address, remaining_s)
            raise LockedOut(wait=remaining_s, detail=f"Too many bad API tokens from {address}: locked out, every "
                                                     f"token refused until the cool-off ends.")
        if len(header) != 2:
            raise self._refused(request, address, TokenRefused(
                "Malformed Authorization header: expected 'Bearer tsk_<prefix>_<secret>'."))
        try:
            key = header[1].decode("ascii")
        except UnicodeDecodeError:
            raise self._refused(request, address, TokenRefused("Malformed API token: not ASCII.")) from None
        try:
            token = token_authenticate(key=key, address=address, now=timezone.now())
        except TokenRefused as refused:
            raise self._refused(request, address, refused) from None
        _audit_as(token.user)
        return token.user, token

    def authenticate_header(self, request: Request) -> str:
        # Makes DRF answer a refused or missing key with 401 (and this challenge), not 403.
        return f'{KEYWORD} realm="api"'

    def _refused(self, request: Request, address: str, refused: TokenRefused) -> exceptions.AuthenticationFailed:
        """Count, log and audit the failure; the 401 to raise, with its reason."""
        cooloff_s = settings.TIERSCOPE_API_TOKEN_COOLOFF_S
        failure = throttle.failure_record(address)
        counted = "not counted (Redis unavailable)" if failure is None else f"failure {failure.count} from it"
        logger.warning("API token refused from %s on %s %s: %s; %s", address, request.method,
                       request._request.path, refused, counted)
        audit_event_record(actor=None, action="api token refused", target=refused.token,
                           detail=f"{address} {request.method} {request._request.path}", outcome=f"refused: {refused}")
        if failure is not None and failure.locked_now:
            logger.warning("API tokens from %s locked out for %d s after %d bad tokens", address,
                           cooloff_s, failure.count)
            audit_event_record(actor=None, action="api token lockout", detail=address,
                               outcome=f"locked out for {cooloff_s} s after {failure.count} bad tokens")
        return exceptions.AuthenticationFailed(str(refused))


def _audit_as(user: Any) -> None:
    """Let the audit log name the token's user as the author of what this request changes.

    AuditMiddleware fixed the request's author before DRF authenticated it (anonymous, for a token request);
    auditlog reads its context when an entry is saved, so setting the user in it here is what a session would
    have set there.
    """
    try:
        context = auditlog_value.get()
    except LookupError:  # outside a request (a test calling the class directly)
        return
    context["actor"] = user
    context["actor_name"] = user.get_username()
