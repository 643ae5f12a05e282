"""The API tokens page in a real browser: a viewer makes a token, copies its key (shown once) and uses it."""

from __future__ import annotations

import json
import re
import urllib.request

import pytest

from tests.browser import shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

KEY = re.compile(r"tsk_[0-9a-f]{8}_[A-Za-z0-9_-]{43}")


def login_viewer(page, live_server) -> None:
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", "vera")
    page.fill("#id_password", "vera-pass-1")  # tests/conftest.py viewer
    page.click("button[type=submit]")
    page.wait_for_url(f"{live_server.url}/")


class TokenPageBrowserTests:
    def test_a_viewer_makes_a_token_sees_its_key_once_and_uses_it(self, page, live_server, viewer, api):
        from apps.apitokens.models import ApiToken

        page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)
        login_viewer(page, live_server)

        page.click(".who >> text=API tokens")
        page.wait_for_url(f"{live_server.url}/accounts/api-tokens/")
        page.fill("#id_name", "nightly report")
        page.fill("#id_expires_days", "30")
        page.click("#token-create")
        page.wait_for_selector("#token-key")

        key = page.inner_text("#token-key").strip()
        assert KEY.fullmatch(key), key
        page.click("button.copy")
        page.wait_for_function("() => document.querySelector('button.copy').textContent === 'Copied'")
        assert page.evaluate("() => navigator.clipboard.readText()") == key
        shot(page, "api_tokens")

        # Once: the list shows the prefix and never the key again.
        page.click("#token-done")
        page.wait_for_url(f"{live_server.url}/accounts/api-tokens/")
        token = ApiToken.objects.get(user=viewer, name="nightly report")
        row = page.locator(f"#tokens-table tr[data-token='{token.prefix}']")
        assert "nightly report" in row.inner_text() and "active" in row.inner_text()
        assert key not in page.content() and not KEY.search(page.content())

        # The key works from a client with no session.
        request = urllib.request.Request(f"{live_server.url}/test-api/whoami/",
                                         headers={"Authorization": f"Bearer {key}"})
        with urllib.request.urlopen(request, timeout=10) as response:
            assert json.loads(response.read()) == {"user": "vera", "token": token.prefix}
