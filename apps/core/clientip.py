"""The address a request comes from, for login throttling (django-axes' AXES_CLIENT_IP_CALLABLE).

REMOTE_ADDR unless the deployment says how many reverse proxies it has (TIERSCOPE_PROXY_COUNT,
off by default): X-Forwarded-For is written by whoever sends the request, so trusting it without
a proxy in front would let a password guesser pick a new address for every attempt. Each proxy
appends the address it received the request from, so with N proxies the client is the N-th entry
from the right; the entries left of it are the client's own claims.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest


def client_ip(request: HttpRequest) -> str | None:
    remote = request.META.get("REMOTE_ADDR")
    proxies = getattr(settings, "TIERSCOPE_PROXY_COUNT", 0)
    if proxies <= 0:
        return remote
    forwarded = [part.strip() for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if part.strip()]
    # Fewer entries than proxies: a request that did not come through all of them.
    return forwarded[-proxies] if len(forwarded) >= proxies else remote
