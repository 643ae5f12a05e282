"""Swagger UI is a page of ours: behind the login page, with no inline code, no CDN, and every file
it loads one of our static files (the site's CSP allows nothing else)."""

from __future__ import annotations

import lxml.html
import pytest
from django.contrib.staticfiles import finders
from django.test import Client

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("path", ["/api/docs/"])
def test_a_docs_page_loads_only_our_static_files_and_no_inline_code(admin_client, path):
    response = admin_client.get(path)

    assert response.status_code == 200
    page = lxml.html.fromstring(response.content)
    scripts = [s.get("src") for s in page.iter("script")]
    styles = [link.get("href") for link in page.iter("link") if link.get("rel") == "stylesheet"]
    assert all(scripts) and not list(page.iter("style")) and not page.xpath("//*[@style]")
    static = [url for url in scripts + styles if url.startswith("/static/")]
    assert static and all(finders.find(url.removeprefix("/static/")) for url in static), static
    assert all(url.startswith("/") for url in scripts + styles)  # no CDN


def test_swagger_uis_start_script_is_served_apart(admin_client):
    response = admin_client.get("/api/docs/?script=")

    assert response["Content-Type"].startswith("application/javascript")
    assert "/api/schema/" in response.content.decode()


def test_docs_pages_send_anonymous_users_to_the_login_page(db):
    response = Client().get("/api/docs/")

    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
