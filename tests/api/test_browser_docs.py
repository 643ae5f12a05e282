"""Swagger UI in a real browser, under the site's CSP: it draws the API's operations from our own static files,
and the browser reports no CSP violation (csp_violations fails the test on any)."""

from __future__ import annotations

import pytest

from tests.browser import login, shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


class ApiDocsBrowserTests:
    def test_swagger_ui_lists_every_operation_within_the_csp(self, page, live_server, admin_user,
                                                                           seed_tiers):
        login(page, live_server, admin_user.username)
        page.goto(f"{live_server.url}/api/docs/")
        page.wait_for_selector(".swagger-ui .opblock", timeout=30_000)
        assert page.locator(".swagger-ui .opblock").count() >= 19
        assert "tierscope API" in page.locator(".swagger-ui .title").first.inner_text()
        shot(page, "api_docs")
