"""allauth's OpenID Connect login and callback views, with an unreachable provider answered by a page.

allauth reads the provider's discovery document and calls its token endpoint inside these views and
lets a network error through as a 500; here it is the sign-in error page (502) and a log line naming
the provider and the error (docs/sso.md, Troubleshooting).
"""

from __future__ import annotations

import logging

import requests
from allauth.socialaccount.providers.openid_connect import views as oidc_views
from django.contrib.auth.decorators import login_not_required
from django.shortcuts import render

log = logging.getLogger(__name__)


def _guarded(view):
    @login_not_required
    def guarded(request, provider_id: str):
        try:
            return view(request, provider_id=provider_id)
        except requests.RequestException as exc:
            log.warning("sso: sign-in with %s failed: provider unreachable (%s: %s)", provider_id,
                        exc.__class__.__name__, exc)
            context = {"auth_error": {"provider": provider_id, "code": "provider unreachable"}}
            return render(request, "socialaccount/authentication_error.html", context, status=502)

    return guarded


login = _guarded(oidc_views.login)
callback = _guarded(oidc_views.callback)
