"""Logging in with a directory account (a real slapd on loopback) in a real browser, the role from its groups."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from axes.models import AccessAttempt, AccessFailureLog
from playwright.sync_api import expect

from tests.accounts.directory import GROUPS, ldap_env
from tests.accounts.sso_env import sso_configured

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


REFUSED = "Your username and password didn't match. Please try again."


def log_in(page, live_server, username: str, password: str) -> None:
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.get_by_role("button", name="Log in").click()


@contextmanager
def directory_login(page, live_server, directory, username: str, password: str, **env: str) -> Iterator[None]:
    """Log in as ``username`` with the ``directory`` fixture's slapd configured (``env`` added to its settings),
    which stays configured for the block."""
    server, _ = directory
    with sso_configured(ldap_env(server, **env)):
        log_in(page, live_server, username, password)
        yield


def expect_home_as(page, live_server, who: str) -> None:
    """Logged in: on the home page, the header naming ``who`` ("name · role")."""
    expect(page).to_have_url(f"{live_server.url}/")
    expect(page.locator(".who .role")).to_have_text(who)


def test_a_member_of_the_admin_group_logs_in_as_admin(page, live_server, directory, django_user_model):
    with directory_login(page, live_server, directory, "lena", "lena-ldap-1"):
        expect_home_as(page, live_server, "lena · admin")
        page.get_by_role("link", name="Admin", exact=True).click()
        expect(page.get_by_role("heading", name="Site administration")).to_be_visible()
        expect(page.get_by_role("link", name="Targets").first).to_be_visible()  # an admin of every model
    user = django_user_model.objects.get(username="lena")
    assert user.is_staff and user.is_superuser and user.email == "lena@example.com"


def test_a_user_outside_the_admin_group_is_a_viewer(page, live_server, directory, django_user_model):
    with directory_login(page, live_server, directory, "sam", "sam-ldap-1"):
        expect_home_as(page, live_server, "sam · viewer")
        expect(page.get_by_role("link", name="Admin", exact=True)).to_have_count(0)
    assert not django_user_model.objects.get(username="sam").is_staff


def test_a_wrong_password_fails_with_the_usual_message_and_counts_for_the_lockout(page, live_server, directory,
                                                                                   django_user_model):
    with directory_login(page, live_server, directory, "otto", "not-his-password"):
        expect(page.get_by_role("alert")).to_have_text(REFUSED)
    assert not django_user_model.objects.filter(username="otto").exists()
    assert AccessAttempt.objects.get(username="otto").failures_since_start == 1
    assert AccessFailureLog.objects.filter(username="otto").count() == 1


def test_the_viewer_group_when_set_is_required(page, live_server, directory, django_user_model):
    with directory_login(page, live_server, directory, "sam", "sam-ldap-1",
                         TIERSCOPE_LDAP_VIEWER_GROUP=f"cn=tierscope-viewers,{GROUPS}"):
        expect(page.get_by_role("alert")).to_have_text(REFUSED)

        log_in(page, live_server, "otto", "otto-ldap-1")
        expect(page.locator(".who .role")).to_have_text("otto · viewer")
        page.get_by_role("button", name="Log out").click()
        expect(page).to_have_url(re.compile(r"/accounts/login/$"))

        log_in(page, live_server, "lena", "lena-ldap-1")  # the admin group alone is enough
        expect(page.locator(".who .role")).to_have_text("lena · admin")
    assert not django_user_model.objects.filter(username="sam").exists()


def test_starttls_with_the_directory_certificate_authority(page, live_server, directory):
    _, ca = directory
    with directory_login(page, live_server, directory, "lena", "lena-ldap-1", TIERSCOPE_LDAP_START_TLS="1",
                         TIERSCOPE_LDAP_CA_FILE=str(ca)):
        expect(page.locator(".who .role")).to_have_text("lena · admin")


def test_starttls_refuses_a_directory_whose_certificate_is_not_trusted(page, live_server, directory, tmp_path):
    from tests.accounts.directory import make_certificates

    other = tmp_path / "other"
    other.mkdir()
    other_ca, _, _ = make_certificates(other)
    with directory_login(page, live_server, directory, "lena", "lena-ldap-1", TIERSCOPE_LDAP_START_TLS="1",
                         TIERSCOPE_LDAP_CA_FILE=str(other_ca)):
        expect(page.get_by_role("alert")).to_have_text(REFUSED)


def test_local_accounts_still_log_in_with_a_directory_configured(page, live_server, directory, viewer):
    with directory_login(page, live_server, directory, "vera", "vera-pass-1"):
        expect_home_as(page, live_server, "vera · viewer")
