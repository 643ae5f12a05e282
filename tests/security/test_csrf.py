"""CSRF: no URL takes a POST without the token, and every form carries one."""

from __future__ import annotations

import lxml.html
import pytest
from django.test import Client

from tests.security.urlconf import urls

pytestmark = pytest.mark.django_db


def csrf_refused(response) -> bool:
    # Pages: Django's CSRF failure page; the REST API (docs/api.md): its JSON refusal of a session's write.
    return response.status_code == 403 and (b"CSRF verification failed" in response.content
                                            or b"CSRF Failed" in response.content)


class CsrfTests:
    def test_it_refuses_a_post_without_token_on_every_url(self, admin_user, site_ids):
        client = Client(enforce_csrf_checks=True)
        client.force_login(admin_user)
        found, _ = urls(site_ids)
        accepted = [u.path for u in found if not csrf_refused(client.post(u.path, {"name": "x"}))]
        assert not accepted, f"took a POST without a CSRF token: {accepted}"

    def test_it_refuses_an_anonymous_login_post_without_token(self, viewer):
        client = Client(enforce_csrf_checks=True)
        response = client.post("/accounts/login/", {"username": "vera", "password": "vera-pass-1"})
        assert csrf_refused(response)
        assert "_auth_user_id" not in client.session

    def test_it_takes_the_same_post_with_the_token(self, admin_user, site_ids):
        client = Client(enforce_csrf_checks=True)
        client.force_login(admin_user)
        client.get("/tiers/")  # sets the CSRF cookie
        token = client.cookies["csrftoken"].value
        response = client.post("/tiers/presets/", {"csrfmiddlewaretoken": token})
        assert response.status_code == 302

    def test_every_post_form_on_every_page_carries_the_token(self, admin_client, site_ids):
        found, _ = urls(site_ids)
        missing = []
        for url in found:
            response = admin_client.get(url.path)
            if response.status_code != 200 or "html" not in response.get("Content-Type", ""):
                continue
            for form in lxml.html.fromstring(response.content).iter("form"):
                if form.get("method", "get").lower() == "post" and not form.xpath(
                        ".//input[@name='csrfmiddlewaretoken']"):
                    missing.append((url.path, form.get("action")))
        assert not missing, missing
