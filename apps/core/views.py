from __future__ import annotations

from django.contrib.auth.decorators import login_not_required
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache

from apps.core.health import health_app_checks, health_broker, health_database, health_heartbeat, health_replica


@login_not_required
@never_cache
def healthz(request: HttpRequest) -> JsonResponse:
    """200 when PostgreSQL and the Redis broker answer and the heartbeats of the worker, beat and a worker of each
    group's queue are fresh, else 503. The read replica is reported, never a cause of 503: the primary serves."""
    db_ok, db_detail = health_database()
    broker_ok, broker_detail = health_broker()
    required: dict[str, dict[str, object]] = {
        "database": {"ok": db_ok, "detail": db_detail},
        "broker": {"ok": broker_ok, "detail": broker_detail},
        "worker": health_heartbeat(process="worker"),
        "beat": health_heartbeat(process="beat"),
        **health_app_checks(database_ok=db_ok),
    }
    healthy = all(part["ok"] for part in required.values())
    body = {"status": "ok" if healthy else "unavailable", **required, "replica": health_replica()}
    return JsonResponse(body, status=200 if healthy else 503)
