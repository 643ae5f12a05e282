from __future__ import annotations

from django.contrib.auth.decorators import login_not_required
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache

from apps.core.health import health_broker, health_database


@login_not_required
@never_cache
def healthz(request: HttpRequest) -> JsonResponse:
    """200 when PostgreSQL and the Redis broker both answer, 503 otherwise."""
    db_ok, db_detail = health_database()
    broker_ok, broker_detail = health_broker()
    body = {
        "status": "ok" if db_ok and broker_ok else "unavailable",
        "database": {"ok": db_ok, "detail": db_detail},
        "broker": {"ok": broker_ok, "detail": broker_detail},
    }
    return JsonResponse(body, status=200 if db_ok and broker_ok else 503)
