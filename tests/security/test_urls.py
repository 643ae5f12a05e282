"""Every URL of the URL conf behind login and the right role; password reset only with mail set up."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator

import pytest
from django.test import override_settings
from django.urls import clear_url_caches

from tests.security.urlconf import pattern_names, urls

pytestmark = pytest.mark.django_db

PUBLIC = {"healthz", "login", "admin:login"}
# Pages with an access control of their own instead of a login (docs/prometheus.md: a bearer token or an address
# allow-list; neither set here, so it answers 404 to everyone, logged in or not).
OWN_ACCESS = {"metrics"}
VIEWER = {
    "dashboard:fleet", "dashboard:target", "dashboard:segment", "dashboard:recommendations", "dashboard:runs",
    "dashboard:run_status", "dashboard:refresh_status", "dashboard:tiers", "password_change", "password_change_done", "logout",
    "plans:list", "plans:detail", "plans:export_sql", "plans:export_csv", "dashboard:search",
    "apitokens:list", "apitokens:new", "apitokens:revoke",
    "dashboard:compare_periods",
    # The REST API (docs/api.md): reads for viewers, its schema and docs pages.
    "api:targets", "api:target", "api:segments", "api:segment_history", "api:recommendations", "api:runs", "api:run",
    "api:tier_sets", "api:budget", "api:plans", "api:plan", "api:plan_steps", "api:plan_script", "api:schema",
    "api:docs",
}
ADMIN_PAGES = {
    "dashboard:tier_edit", "dashboard:tier_presets", "dashboard:collect", "dashboard:recompute", "snapshots:import", "targets:check",
    "targets:check_status", "dashboard:audit", "plans:new", "plans:state", "dashboard:storage_location",
    "calibration:upload", "dashboard:budget_plans", "dashboard:targets_manage", "dashboard:target_add",
    "dashboard:target_edit", "dashboard:target_delete", "dashboard:target_check_start",
    "api:collect", "api:import_report", "api:import_extract", "api:plan_state", "api:audit",
}
POST_ONLY = {"dashboard:tier_presets", "dashboard:collect", "dashboard:recompute", "plans:state", "logout",
             "admin:logout", "dashboard:storage_location", "calibration:upload", "dashboard:budget_plans",
             "dashboard:target_check_start", "apitokens:new", "apitokens:revoke",
             "api:collect", "api:import_report", "api:import_extract", "api:plan_state"}
# What an admin gets on a GET where it is not 200, and why.
ADMIN_NOT_200 = {
    "admin:view_on_site": (302, 404),  # a redirect to the object's page, or 404 when it has none
    "admin:autocomplete": (403,),  # needs app_label/model_name/field_name parameters
    "api:budget": (400,),  # needs budget_tier and budget_amount, and says so
}


def admin_expects(name: str) -> tuple[int, ...]:
    if name in POST_ONLY:
        return (405,)
    if name.startswith("admin:") and name.endswith(("_add", "_delete")):
        return (200, 403)  # rows only the system writes (runs, login attempts, the audit log): no add/delete
    return ADMIN_NOT_200.get(name, (200,))


def is_admin_only(name: str) -> bool:
    return name in ADMIN_PAGES or (name.startswith("admin:") and name != "admin:login")


@pytest.fixture
def every_url(site_ids):
    found, skipped = urls(site_ids)
    assert not skipped, f"no row to fill these URLs with: create one in tests/security/conftest.py {skipped}"
    # The row-backed pages of our own apps are all reached.
    assert {u.name for u in found} >= VIEWER | ADMIN_PAGES | PUBLIC
    return found


def refused(response, *, admin_site: bool) -> bool:
    """403, or the admin site's own refusal: back to its login page ("not authorized"), or to its
    index from its logout (which then sends a viewer to that login page)."""
    if response.status_code == 403:
        return True
    location = response.get("Location", "")
    return admin_site and response.status_code == 302 and (location.startswith("/admin/login/")
                                                          or location == "/admin/")


class UrlConfTests:
    def test_it_classifies_every_named_url(self):
        names = pattern_names()
        unclassified = {n for n in names if n not in PUBLIC | VIEWER | OWN_ACCESS and not is_admin_only(n)}
        assert not unclassified, f"add these to PUBLIC, VIEWER or ADMIN_PAGES: {sorted(unclassified)}"

    def test_it_sends_anonymous_users_to_login_everywhere_but_healthz_and_login(self, client, every_url):
        for url in every_url:
            if url.name in PUBLIC | OWN_ACCESS:
                continue
            response = client.get(url.path)
            if response.status_code in (401, 403):
                continue
            assert response.status_code == 302, (url, response.status_code)
            assert response["Location"].startswith(("/accounts/login/?next=", "/admin/login/?next=")), url

    def test_it_leaves_healthz_and_login_open(self, client, every_url):
        for url in every_url:
            if url.name in PUBLIC:
                assert client.get(url.path).status_code in (200, 503), url  # healthz: 503 without a worker

    def test_it_refuses_viewers_every_admin_page_and_action(self, viewer_client, every_url):
        for url in every_url:
            if not is_admin_only(url.name):
                continue
            method = viewer_client.post if url.name in POST_ONLY else viewer_client.get
            response = method(url.path)
            assert refused(response, admin_site=url.name.startswith("admin:")), (url, response.status_code)

    def test_it_shows_viewers_their_pages(self, viewer_client, every_url):
        for url in every_url:
            if url.name in VIEWER:
                expected = (405,) if url.name in POST_ONLY else ADMIN_NOT_200.get(url.name, (200,))
                assert viewer_client.get(url.path).status_code in expected, url

    def test_it_shows_admins_every_page(self, admin_client, every_url):
        for url in every_url:
            if url.name in PUBLIC | OWN_ACCESS:
                continue
            assert admin_client.get(url.path).status_code in admin_expects(url.name), url

    def test_pages_of_their_own_access_answer_no_one_without_it(self, client, admin_client, every_url):
        for url in every_url:
            if url.name in OWN_ACCESS:
                assert client.get(url.path).status_code == 404, url
                assert admin_client.get(url.path).status_code == 404, url  # a login is not its access


@pytest.fixture
def reset_urls() -> Iterator[Callable[..., None]]:
    """Re-reads config/urls.py under a given EMAIL_HOST (the URL conf decides at import)."""
    import config.urls

    def load(**overrides):
        with override_settings(**overrides):
            importlib.reload(config.urls)
            clear_url_caches()

    yield load
    importlib.reload(config.urls)
    clear_url_caches()



class PasswordResetTests:
    def test_it_has_no_reset_pages_without_mail(self, client, reset_urls):
        reset_urls(EMAIL_HOST="", PASSWORD_RESET_ENABLED=False)
        assert client.get("/accounts/password_reset/").status_code == 404
        assert client.get("/accounts/reset/MQ/set-password/").status_code == 404
        page = client.get("/accounts/login/").content.decode()
        assert "password_reset" not in page and "Forgot" not in page

    def test_it_offers_reset_when_mail_is_set_up(self, client, reset_urls):
        reset_urls(EMAIL_HOST="mail.example.com", PASSWORD_RESET_ENABLED=True)
        assert client.get("/accounts/password_reset/").status_code == 200
        page = client.get("/accounts/login/").content.decode()
        assert 'href="/accounts/password_reset/"' in page
