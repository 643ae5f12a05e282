from __future__ import annotations

import pytest
from django.test import override_settings


@pytest.mark.django_db
class HealthzTests:
    def test_it_answers_200_when_database_and_broker_answer(self, client):
        response = client.get("/healthz")

        assert response.status_code == 200
        body = response.json()
        assert body["status"] == "ok"
        assert body["database"]["ok"] is True
        assert body["broker"]["ok"] is True

    def test_it_answers_503_when_the_broker_does_not(self, client):
        # Port 9 (discard) on loopback: nothing listens there.
        with override_settings(REDIS_URL="redis://127.0.0.1:9/0"):
            response = client.get("/healthz")

        assert response.status_code == 503
        body = response.json()
        assert body["broker"]["ok"] is False
        assert body["database"]["ok"] is True

    def test_it_answers_503_when_the_database_does_not(self, client, monkeypatch):
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
