"""Fixtures the snapshot tests share: the real Celery app with its broker down (the report target is tests/conftest.py's)."""

from __future__ import annotations

import pytest


@pytest.fixture
def closed_broker(settings):
    """The real Celery app sending to a Redis port where nothing listens (the broker is down)."""
    from config.celery import app

    saved = app.conf.broker_url, app.conf.task_always_eager
    app.conf.broker_url, app.conf.task_always_eager = "redis://127.0.0.1:9/0", False
    _forget_connections(app)
    try:
        yield app
    finally:
        app.conf.broker_url, app.conf.task_always_eager = saved
        _forget_connections(app)


def _forget_connections(app) -> None:
    # The app keeps its broker connections and producers once made: drop them so the URL applies.
    app._pool = None
    app.amqp._producer_pool = None
