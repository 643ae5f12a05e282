from __future__ import annotations

import pytest

TOKEN = "scrape-token-1"


@pytest.fixture
def metrics_token(settings):
    settings.TIERSCOPE_METRICS_TOKEN, settings.TIERSCOPE_METRICS_ALLOW = TOKEN, []
    return TOKEN


def scrape(client, token: str = TOKEN):
    return client.get("/metrics", HTTP_AUTHORIZATION=f"Bearer {token}")
