"""The key's user for the body guard, which runs before DRF authenticates.

apps.core.middleware.RequestBodyGuardMiddleware decides from the headers alone how large a body a client may
send, by its role; a request signed by an API token has no session, so without this it would be anonymous there
and an admin's upload through the API refused at 16 KB. This middleware sits between AuthenticationMiddleware and
the guard and, for a request with a body and a Bearer key, sets ``request.bearer_user`` to the key's user when the
key is valid. It counts and audits nothing: DRF's ApiTokenAuthentication does that for the view, and refuses the
request there if the key is bad (a bad key is anonymous to the guard).
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils import timezone

from apps.apitokens import throttle
from apps.apitokens.authentication import KEYWORD
from apps.apitokens.services import TokenRefused, token_authenticate
from apps.core.clientip import client_ip
from apps.core.middleware import body_length

_PREFIX = f"{KEYWORD} ".lower()


class BearerUserMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        header = request.META.get("HTTP_AUTHORIZATION", "")
        if header.lower().startswith(_PREFIX) and body_length(request) != 0 and not request.user.is_authenticated:
            address = client_ip(request) or "unknown"
            if not throttle.lockout_remaining_s(address):
                try:
                    # Our attribute on Django's request (read back with getattr, apps.core.middleware): the
                    # stubs' HttpRequest lists Django's own only.
                    request.bearer_user = token_authenticate(  # type: ignore[attr-defined]
                        key=header[len(_PREFIX):].strip(), address=address, now=timezone.now()).user
                except TokenRefused:
                    pass  # refused, counted and audited by ApiTokenAuthentication when the view runs
        return self.get_response(request)
