"""The redirect to an OpenID Connect provider: the authorization code flow with PKCE, to the registered URI."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest

from tests.accounts.sso_env import sso_configured

pytestmark = pytest.mark.django_db


def test_sign_in_redirects_to_the_provider_with_pkce_and_the_callback_uri(client, oidc_provider):
    with sso_configured(oidc_provider.env()):
        response = client.post("/accounts/oidc/corp/login/?process=login")

    assert response.status_code == 302
    location = urlsplit(response["Location"])
    assert f"{location.scheme}://{location.netloc}" == oidc_provider.url
    query = parse_qs(location.query)
    assert query["response_type"] == ["code"] and query["client_id"] == ["tierscope"]
    assert query["redirect_uri"] == ["http://testserver/accounts/oidc/corp/login/callback/"]
    assert query["code_challenge_method"] == ["S256"] and query["code_challenge"][0]
    assert set(query["scope"][0].split()) == {"openid", "profile", "email"}


def test_sign_in_is_refused_on_a_get_which_another_site_could_trigger(client, oidc_provider):
    with sso_configured(oidc_provider.env()):
        response = client.get("/accounts/oidc/corp/login/?process=login")

    assert response.status_code == 200  # a confirmation form, no redirect to the provider
    assert "Location" not in response
    page = response.content.decode()
    assert "Continue to Corp ID" in page and 'class="topbar"' in page
