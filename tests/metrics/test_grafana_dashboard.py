"""The Grafana dashboard in docs/ asks only for metrics that /metrics serves."""

from __future__ import annotations

import json
import re

import pytest
from prometheus_client.parser import text_string_to_metric_families

from tests.conftest import ROOT
from tests.metrics.conftest import scrape


@pytest.mark.django_db
def test_every_metric_the_dashboard_queries_is_served(client, metrics_token, demo_target, collect, no_heartbeats):
    from apps.core.heartbeat import heartbeat_write

    collect(demo_target)
    heartbeat_write(process="worker")  # a worker of this database's (none runs here)
    served = {s.name for f in text_string_to_metric_families(scrape(client).content.decode()) for s in f.samples}
    dashboard = json.loads((ROOT / "docs" / "grafana" / "tierscope.json").read_text())
    expressions = [t["expr"] for panel in dashboard["panels"] for t in panel["targets"]]
    expressions.append(dashboard["templating"]["list"][1]["query"]["query"])

    asked = {name for expr in expressions for name in re.findall(r"\btierscope_[a-z_]+", expr)}

    assert asked and asked - served == set()
