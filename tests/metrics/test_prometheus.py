"""The exposition against Prometheus itself: promtool's lint, and a real Prometheus scraping a live server."""

from __future__ import annotations

import datetime as dt
import json
import shutil
import socket
import subprocess
import urllib.parse
import urllib.request

import pytest

from apps.snapshots.models import CollectionRun
from apps.targets.models import Target
from tests.metrics.conftest import TOKEN, scrape
from tests.waiting import wait_for

pytestmark = pytest.mark.prometheus

NEEDS = "Debian's prometheus package (scripts/dev/stack.sh setup --browser installs it)"


def _binary(name: str) -> str:
    path = shutil.which(name)
    assert path, f"{name} not found: install {NEEDS}"
    return path


def _target_with_runs() -> Target:
    target = Target.objects.create(name="idle", mode=Target.Mode.AWR, dsn="db:1521/x")
    at = dt.datetime(2026, 11, 1, tzinfo=dt.UTC)
    for minutes, status in ((0, "succeeded"), (10, "failed"), (20, "failed")):
        when = at + dt.timedelta(minutes=minutes)
        CollectionRun.objects.create(target=target, status=status, queued_at=when, finished_at=when)
    return target


@pytest.mark.django_db
def test_promtool_finds_nothing_to_lint(client, metrics_token, demo_target, collect):
    collect(demo_target)
    _target_with_runs()
    body = scrape(client).content

    result = subprocess.run([_binary("promtool"), "check", "metrics"], input=body, capture_output=True, timeout=60)

    assert result.returncode == 0, (result.stdout + result.stderr).decode()
    assert result.stdout.strip() == b"" and result.stderr.strip() == b"", (result.stdout + result.stderr).decode()


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _query(port: int, expression: str) -> list[dict]:
    url = f"http://127.0.0.1:{port}/api/v1/query?" + urllib.parse.urlencode({"query": expression})
    with urllib.request.urlopen(url, timeout=5) as response:
        answer = json.load(response)
    assert answer["status"] == "success", answer
    return answer["data"]["result"]


@pytest.mark.django_db(transaction=True)
def test_prometheus_scrapes_a_live_server_and_answers_a_query(live_server, metrics_token, seed_tiers, tmp_path):
    _target_with_runs()
    app = urllib.parse.urlsplit(live_server.url)
    port = _free_port()
    config = tmp_path / "prometheus.yml"
    config.write_text(json.dumps({  # JSON is YAML
        "global": {"scrape_interval": "1s", "scrape_timeout": "1s"},
        "scrape_configs": [{
            "job_name": "tierscope", "metrics_path": "/metrics",
            "authorization": {"type": "Bearer", "credentials": TOKEN},
            "static_configs": [{"targets": [f"127.0.0.1:{app.port}"]}],
        }],
    }))
    log = (tmp_path / "prometheus.log").open("wb")
    proc = subprocess.Popen([_binary("prometheus"), f"--config.file={config}", f"--storage.tsdb.path={tmp_path}/data",
                             f"--web.listen-address=127.0.0.1:{port}"], stdout=log, stderr=subprocess.STDOUT)
    try:
        # The scrape succeeds (up == 1), then the series holds the database's figure.
        wait_for(lambda: [r for r in _query(port, 'up{job="tierscope"}') if r["value"][1] == "1"], timeout_s=60,
                 what="Prometheus to scrape /metrics (up == 1)", ignoring=(OSError,))
        result = wait_for(lambda: _query(port, 'tierscope_target_consecutive_failures{target="idle"}'),
                          timeout_s=30, what="the failures series in Prometheus", ignoring=(OSError,))
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        log.close()

    assert result[0]["value"][1] == "2"
    assert result[0]["metric"]["job"] == "tierscope"
