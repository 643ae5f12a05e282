"""/metrics for Prometheus: a bearer token or an allowed address, else refused with a message saying why.

Neither TIERSCOPE_METRICS_TOKEN nor TIERSCOPE_METRICS_ALLOW set: 404, the endpoint is off (a stock install
publishes no figures). A scrape reads PostgreSQL in one transaction under ``statement_timeout``
(TIERSCOPE_METRICS_STATEMENT_TIMEOUT_MS), so a slow database fails the scrape, never a gunicorn worker.
"""

from __future__ import annotations

import hmac
import ipaddress
import logging

from django.conf import settings
from django.contrib.auth.decorators import login_not_required
from django.db import DatabaseError, connection, transaction
from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_GET
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest

from apps.core import sql as core_sql
from apps.core.clientip import client_ip
from apps.metrics.collector import TierscopeCollector

logger = logging.getLogger(__name__)


def _text(body: str, status: int, **headers: str) -> HttpResponse:
    response = HttpResponse(body + "\n", status=status, content_type="text/plain; charset=utf-8")
    for name, value in headers.items():
        response[name.replace("_", "-")] = value
    return response


def metrics_refusal(request: HttpRequest) -> HttpResponse | None:
    """None when the request may read the metrics, else the response that says why not."""
    token, allow = settings.TIERSCOPE_METRICS_TOKEN, settings.TIERSCOPE_METRICS_ALLOW
    if not token and not allow:
        return _text("metrics are off: set TIERSCOPE_METRICS_TOKEN (bearer token) or TIERSCOPE_METRICS_ALLOW "
                     "(addresses/CIDRs allowed to scrape); see docs/prometheus.md", 404)
    header = request.META.get("HTTP_AUTHORIZATION", "")
    if token and header:
        scheme, _, given = header.partition(" ")
        if scheme.lower() == "bearer" and hmac.compare_digest(given.strip().encode(), token.encode()):
            return None
        return _text("metrics: the bearer token is wrong", 401, WWW_Authenticate='Bearer realm="metrics"')
    address = client_ip(request)
    if allow and _allowed(address, allow):
        return None
    if token:
        return _text("metrics: send Authorization: Bearer <TIERSCOPE_METRICS_TOKEN>", 401,
                     WWW_Authenticate='Bearer realm="metrics"')
    return _text(f"metrics: address {address} is not in TIERSCOPE_METRICS_ALLOW", 403)


def _allowed(address: str | None, allow: list[str]) -> bool:
    try:
        ip = ipaddress.ip_address(address or "")
    except ValueError:
        return False
    return any(ip in ipaddress.ip_network(entry, strict=False) for entry in allow)


@login_not_required
@require_GET
def metrics(request: HttpRequest) -> HttpResponse:
    refusal = metrics_refusal(request)
    if refusal is not None:
        return refusal
    registry = CollectorRegistry(auto_describe=False)
    registry.register(TierscopeCollector())
    try:
        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute(core_sql.STATEMENT_TIMEOUT_SET, [settings.TIERSCOPE_METRICS_STATEMENT_TIMEOUT_MS])
            body = generate_latest(registry)
    except DatabaseError as exc:
        logger.error("metrics scrape failed reading PostgreSQL: %s", exc)
        return _text(f"metrics: PostgreSQL did not answer in time or at all: {str(exc).splitlines()[0]}", 503)
    return HttpResponse(body, content_type=CONTENT_TYPE_LATEST)
