"""API token fixtures: tokens of the named actors, a clean lockout count, a tiny DRF API to call with them."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def no_lockouts(settings):
    """This test database's lockout keys removed before and after (Redis outlives a test)."""
    import redis

    pattern = f"tierscope:{settings.DATABASES['default']['NAME']}:apitokens:*"
    client = redis.Redis.from_url(settings.REDIS_URL)

    def clear():
        keys = list(client.scan_iter(match=pattern))
        if keys:
            client.delete(*keys)

    clear()
    yield
    clear()
    client.close()


@pytest.fixture
def make_token(db):
    """``make_token(user, name="ci", days=None, now=None)`` -> NewToken (its key in clear)."""
    from django.utils import timezone

    from apps.apitokens.services import token_create

    def make(user, name="ci", days=None, now=None):
        return token_create(user=user, name=name, expires_days=days, now=now or timezone.now())

    return make


@pytest.fixture
def api(settings):
    """The test API (tests/apitokens/api_urls.py) routed in front of the project's URL conf."""
    settings.ROOT_URLCONF = "tests.apitokens.api_urls"
