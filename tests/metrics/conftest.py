from __future__ import annotations

import pytest
import redis
from django.conf import settings

from apps.core.heartbeat import heartbeat_key

TOKEN = "scrape-token-1"


@pytest.fixture
def metrics_token(settings):
    settings.TIERSCOPE_METRICS_TOKEN, settings.TIERSCOPE_METRICS_ALLOW = TOKEN, []
    return TOKEN


@pytest.fixture
def no_heartbeats():
    """This test database's heartbeat keys removed before and after (no worker of ours writes them)."""
    client = redis.Redis.from_url(settings.REDIS_URL)
    keys = [heartbeat_key(process) for process in ("worker", "beat")]
    client.delete(*keys)
    yield
    client.delete(*keys)
    client.close()


def scrape(client, token: str = TOKEN):
    return client.get("/metrics", HTTP_AUTHORIZATION=f"Bearer {token}")
