from __future__ import annotations

from django.contrib.auth.decorators import login_not_required
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache

from apps.core.health import health_broker, health_database, health_heartbeat


@login_not_required
@never_cache
def healthz(request: HttpRequest) -> JsonResponse:
    """200 when PostgreSQL and the Redis broker answer and the worker's and beat's heartbeats are fresh, else 503."""
    db_ok, db_detail = health_database()
    broker_ok, broker_detail = health_broker()
    body: dict[str, object] = {
        "database": {"ok": db_ok, "detail": db_detail},
        "broker": {"ok": broker_ok, "detail": broker_detail},
        "worker": health_heartbeat(process="worker"),
        "beat": health_heartbeat(process="beat"),
    }
    healthy = all(part["ok"] for part in body.values())  # type: ignore[index]
    body = {"status": "ok" if healthy else "unavailable", **body}
    return JsonResponse(body, status=200 if healthy else 503)
