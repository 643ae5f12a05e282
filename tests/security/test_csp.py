"""A Content-Security-Policy on every page, strict for scripts (the browser test proves the pages obey it)."""

from __future__ import annotations

import pytest

from tests.security.urlconf import urls

pytestmark = pytest.mark.django_db


def directives(header: str) -> dict[str, list[str]]:
    parsed = {}
    for part in header.split(";"):
        words = part.split()
        if words:
            parsed[words[0]] = words[1:]
    return parsed


class CspTests:
    def test_every_page_has_a_strict_policy(self, admin_client, site_ids):
        found, _ = urls(site_ids)
        missing = []
        for url in found:
            response = admin_client.get(url.path)
            header = response.get("Content-Security-Policy")
            if not header:
                missing.append((url.path, response.status_code))
                continue
            policy = directives(header)
            assert policy["default-src"] == ["'self'"], url
            assert "'unsafe-inline'" not in policy.get("script-src", policy["default-src"]), url
            assert "'unsafe-eval'" not in policy.get("script-src", policy["default-src"]), url
            assert "'unsafe-inline'" not in policy.get("style-src", policy["default-src"]), url
            assert policy["frame-ancestors"] == ["'none'"] and policy["object-src"] == ["'none'"], url
        assert not missing, missing

    def test_the_login_page_and_errors_have_it_too(self, client):
        for path in ("/accounts/login/", "/no-such-page/"):
            assert "default-src 'self'" in client.get(path).get("Content-Security-Policy", ""), path
