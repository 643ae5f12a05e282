"""Signing in through a real OpenID Connect provider in a real browser, with the role the groups claim gives."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.accounts.sso_env import sso_configured

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True),
              pytest.mark.filterwarnings("ignore::DeprecationWarning:authlib.*")]  # the mock provider's library


def sign_in(page, live_server, sub: str) -> None:
    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_role("button", name="Sign in with Corp ID").click()
    # The provider's own page: pick the user (a real provider asks for a password here).
    page.get_by_role("button", name=sub, exact=True).click()


def test_a_member_of_an_admin_group_lands_on_the_fleet_page_as_admin(page, live_server, oidc_provider,
                                                                     django_user_model):
    with sso_configured(oidc_provider.env()):
        sign_in(page, live_server, "alice")

        expect(page).to_have_url(f"{live_server.url}/")
        expect(page.locator(".who .role")).to_have_text("alice · admin")
        expect(page.get_by_role("link", name="Audit")).to_be_visible()
        page.get_by_role("link", name="Admin", exact=True).click()
        expect(page.get_by_role("heading", name="Site administration")).to_be_visible()
        expect(page.get_by_role("link", name="Targets").first).to_be_visible()  # an admin of every model
    user = django_user_model.objects.get(username="alice")
    assert user.is_staff and user.is_superuser and not user.has_usable_password()
    assert (user.email, user.first_name, user.last_name) == ("alice@example.com", "Alice", "Admin")


def test_a_user_of_no_admin_group_is_a_viewer(page, live_server, oidc_provider, django_user_model):
    with sso_configured(oidc_provider.env()):
        sign_in(page, live_server, "bob")

        expect(page).to_have_url(f"{live_server.url}/")
        expect(page.locator(".who .role")).to_have_text("bob · viewer")
        expect(page.get_by_role("link", name="Admin", exact=True)).to_have_count(0)
        expect(page.get_by_role("link", name="Audit")).to_have_count(0)
    assert not django_user_model.objects.get(username="bob").is_staff


def test_the_role_follows_the_provider_at_every_sign_in(page, live_server, oidc_provider, django_user_model):
    with sso_configured(oidc_provider.env()):
        sign_in(page, live_server, "alice")
        expect(page.locator(".who .role")).to_have_text("alice · admin")
        page.get_by_role("button", name="Log out").click()
        expect(page).to_have_url(re.compile(r"/accounts/login/$"))

        oidc_provider.set_claims("alice", {"preferred_username": "alice", "groups": ["dbas"]})
        sign_in(page, live_server, "alice")

        expect(page.locator(".who .role")).to_have_text("alice · viewer")
    user = django_user_model.objects.get(username="alice")
    assert not user.is_staff and not user.is_superuser
    assert django_user_model.objects.filter(username__startswith="alice").count() == 1


def test_a_user_of_no_allowed_group_is_refused_when_viewer_groups_are_set(page, live_server, oidc_provider,
                                                                         django_user_model):
    with sso_configured(oidc_provider.env(TIERSCOPE_OIDC_VIEWER_GROUPS="dbas")):
        sign_in(page, live_server, "mallory")

        expect(page.get_by_role("alert")).to_contain_text(
            "Corp ID signed you in, but tierscope refuses you: your account is in none of the groups")
        page.goto(f"{live_server.url}/")
        expect(page).to_have_url(re.compile(r"/accounts/login/\?next=/$"))
    assert not django_user_model.objects.filter(username="mallory").exists()


def test_the_page_asked_for_opens_after_signing_in(page, live_server, oidc_provider):
    with sso_configured(oidc_provider.env()):
        page.goto(f"{live_server.url}/runs/")
        expect(page).to_have_url(re.compile(r"/accounts/login/\?next=/runs/$"))
        page.get_by_role("button", name="Sign in with Corp ID").click()
        page.get_by_role("button", name="bob", exact=True).click()

        expect(page).to_have_url(f"{live_server.url}/runs/")
        expect(page.locator(".who .role")).to_have_text("bob · viewer")


def test_local_accounts_still_log_in_with_a_provider_configured(page, live_server, oidc_provider, admin_user):
    with sso_configured(oidc_provider.env()):
        page.goto(f"{live_server.url}/accounts/login/")
        expect(page.get_by_role("button", name="Sign in with Corp ID")).to_be_visible()
        page.fill("#id_username", "ada")
        page.fill("#id_password", "ada-pass-1")
        page.get_by_role("button", name="Log in").click()

        expect(page).to_have_url(f"{live_server.url}/")
        expect(page.locator(".who .role")).to_have_text("ada · admin")


def test_denying_at_the_provider_gives_a_page_back_to_the_login_and_logs_no_one_in(page, live_server,
                                                                                   oidc_provider):
    with sso_configured(oidc_provider.env()):
        page.goto(f"{live_server.url}/accounts/login/")
        page.get_by_role("button", name="Sign in with Corp ID").click()
        page.get_by_role("button", name="Deny").click()

        # "was cancelled" when the provider sends the state back with the refusal; this one does not, and
        # allauth then reports the callback as failed.
        expect(page.get_by_role("alert")).to_contain_text("Signing in with your identity provider")
        page.get_by_role("link", name="Back to the login page").click()
        expect(page.get_by_role("button", name="Sign in with Corp ID")).to_be_visible()
        page.goto(f"{live_server.url}/")
        expect(page).to_have_url(re.compile(r"/accounts/login/\?next=/$"))
