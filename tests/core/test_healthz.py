from __future__ import annotations

import time

import pytest
from django.test import override_settings

from apps.core.heartbeat import heartbeat_key, heartbeat_write


@pytest.fixture
def heartbeats():
    """Worker and beat alive: fresh heartbeats under this test database's keys."""
    import redis
    from django.conf import settings

    for process in ("worker", "beat"):
        heartbeat_write(process=process)
    yield
    client = redis.Redis.from_url(settings.REDIS_URL)
    client.delete(heartbeat_key("worker"), heartbeat_key("beat"))
    client.close()


@pytest.mark.django_db
class HealthzTests:
    def test_it_answers_200_when_database_broker_and_heartbeats_are_fine(self, client, heartbeats):
        response = client.get("/healthz")

        assert response.status_code == 200
        body = response.json()
        assert body["status"] == "ok"
        assert body["database"]["ok"] is True
        assert body["broker"]["ok"] is True
        assert body["worker"]["ok"] is True and 0 <= body["worker"]["age_s"] < 5
        assert body["beat"]["ok"] is True and 0 <= body["beat"]["age_s"] < 5

    def test_it_answers_503_when_the_beat_heartbeat_is_stale(self, client, heartbeats, settings):
        settings.TIERSCOPE_HEARTBEAT_STALE_S = 90
        heartbeat_write(process="beat", at_s=time.time() - 120)

        response = client.get("/healthz")

        assert response.status_code == 503
        body = response.json()
        assert body["beat"]["ok"] is False and body["beat"]["age_s"] >= 120
        assert "stale" in body["beat"]["detail"]
        assert body["worker"]["ok"] is True and body["database"]["ok"] is True

    def test_it_answers_503_when_the_worker_heartbeat_is_missing(self, client, heartbeats):
        import redis
        from django.conf import settings

        redis.Redis.from_url(settings.REDIS_URL).delete(heartbeat_key("worker"))

        response = client.get("/healthz")

        assert response.status_code == 503
        body = response.json()
        assert body["worker"] == {"ok": False, "age_s": None, "detail": "no heartbeat"}
        assert body["beat"]["ok"] is True

    def test_it_keys_heartbeats_by_database(self, settings):
        # A test worker on the shared Redis must not speak for the stack of the same machine.
        assert settings.DATABASES["default"]["NAME"] in heartbeat_key("worker")

    def test_it_answers_503_when_the_broker_does_not(self, client, heartbeats):
        # Port 9 (discard) on loopback: nothing listens there.
        with override_settings(REDIS_URL="redis://127.0.0.1:9/0"):
            response = client.get("/healthz")

        assert response.status_code == 503
        body = response.json()
        assert body["broker"]["ok"] is False
        assert body["database"]["ok"] is True

    def test_it_answers_503_when_the_database_does_not(self, client, monkeypatch, heartbeats):
        from django.db.utils import OperationalError

        import apps.core.health as health

        class DeadCursor:
            def __enter__(self):
                raise OperationalError("connection to server at 127.0.0.1 port 1 failed")

            def __exit__(self, *exc):
                return False

        monkeypatch.setattr(health.connection, "cursor", lambda: DeadCursor())
        response = client.get("/healthz")

        assert response.status_code == 503
        assert response.json()["database"]["ok"] is False
        assert "port 1 failed" in response.json()["database"]["detail"]

    def test_it_needs_no_login(self, client):
        assert client.get("/healthz").status_code in (200, 503)
