"""A provider that cannot be reached or answers nonsense gives the sign-in error page and a log line, not a 500."""

from __future__ import annotations

import json
import logging
import socket

import pytest

from tests.accounts.sso_env import sso_configured

pytestmark = pytest.mark.django_db


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]  # closed again when the with block ends: nothing listens there


def env_for(server_url: str) -> dict[str, str]:
    return {"TIERSCOPE_OIDC_PROVIDERS": json.dumps([{"id": "corp", "name": "Corp ID", "server_url": server_url,
                                                     "client_id": "tierscope", "secret": "s"}])}


def test_an_unreachable_provider_gives_the_error_page_and_a_log_line(client, caplog):
    with sso_configured(env_for(f"http://127.0.0.1:{closed_port()}")), caplog.at_level(logging.WARNING):
        response = client.post("/accounts/oidc/corp/login/?process=login")

    assert response.status_code == 502
    page = response.content.decode()
    assert "Signing in with your identity provider failed (provider unreachable)" in page
    assert any(r.getMessage().startswith("sso: sign-in with corp failed: provider unreachable (ConnectionError")
               for r in caplog.records)


def test_a_callback_with_a_forged_state_gives_the_error_page_and_a_log_line(client, caplog, oidc_provider):
    with sso_configured(env_for(oidc_provider.url)), caplog.at_level(logging.WARNING):
        response = client.get("/accounts/oidc/corp/login/callback/?code=forged&state=forged")

    assert response.status_code == 401
    assert "Signing in with your identity provider failed" in response.content.decode()
    assert "sso: sign-in with corp failed: unknown" in [r.getMessage() for r in caplog.records]


def test_the_error_and_cancelled_pages_open_without_a_login(client, oidc_provider):
    with sso_configured(env_for(oidc_provider.url)):
        error = client.get("/accounts/sso/error/")
        cancelled = client.get("/accounts/sso/cancelled/")

    assert error.status_code == 401 and "Signing in with your identity provider failed" in error.content.decode()
    assert cancelled.status_code == 200 and "was cancelled" in cancelled.content.decode()
