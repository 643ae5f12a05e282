"""A directory that cannot be reached: the normal login failure, a log line saying why, local accounts unharmed."""

from __future__ import annotations

import logging
import socket

import pytest

from tests.accounts.sso_env import sso_configured

pytestmark = pytest.mark.django_db

LOGIN = "/accounts/login/"


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]  # closed again when the with block ends: nothing listens there


def env() -> dict[str, str]:
    return {"TIERSCOPE_LDAP_URI": f"ldap://127.0.0.1:{closed_port()}", "TIERSCOPE_LDAP_TIMEOUT_S": "2",
            "TIERSCOPE_LDAP_USER_SEARCH_BASE": "ou=people,dc=example,dc=com"}


def test_an_unreachable_directory_fails_the_login_and_logs_why(client, caplog):
    with sso_configured(env()), caplog.at_level(logging.WARNING):
        response = client.post(LOGIN, {"username": "lena", "password": "lena-ldap-1"})

    assert response.status_code == 200
    assert "Your username and password didn't match" in response.content.decode()
    assert any(r.name == "django_auth_ldap" and "Can't contact LDAP server" in r.getMessage()
               for r in caplog.records), [r.getMessage() for r in caplog.records]


def test_local_accounts_log_in_while_the_directory_is_down(client, viewer):
    with sso_configured(env()):
        response = client.post(LOGIN, {"username": "vera", "password": "vera-pass-1"})

    assert response.status_code == 302 and "_auth_user_id" in client.session
