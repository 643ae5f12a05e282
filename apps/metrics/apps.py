from __future__ import annotations

import ipaddress
from typing import Any

from django.apps import AppConfig
from django.conf import settings
from django.core.checks import Error, register


class MetricsConfig(AppConfig):
    name = "apps.metrics"

    def ready(self) -> None:
        register(check_metrics_allow)


def check_metrics_allow(app_configs: Any = None, **kwargs: Any) -> list[Error]:
    """metrics.E001: every entry of TIERSCOPE_METRICS_ALLOW is an address or a network (CIDR)."""
    errors = []
    for entry in settings.TIERSCOPE_METRICS_ALLOW:
        try:
            ipaddress.ip_network(entry, strict=False)
        except ValueError as exc:
            errors.append(Error(f"TIERSCOPE_METRICS_ALLOW entry {entry!r} is not an address or CIDR: {exc}",
                                hint="e.g. TIERSCOPE_METRICS_ALLOW=127.0.0.1/32,10.0.0.0/8", id="metrics.E001"))
    return errors
