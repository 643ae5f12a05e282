"""A client generated from the schema alone (openapi-python-client) lists the targets and pages through a
target's recommendations against a real HTTP server: the schema is enough to use the API."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import Client
from django.utils import timezone

from apps.apitokens.services import token_create
from tests.dashboard.factories import build_target


@pytest.fixture
def generated(tmp_path, transactional_db, admin_user):
    """The generated package ``tierscope_client``, importable, and an API key of the admin."""
    web = Client()
    web.force_login(admin_user)
    schema = tmp_path / "schema.json"
    schema.write_bytes(web.get("/api/schema/?format=json").content)
    config = tmp_path / "config.yaml"
    config.write_text("post_hooks: []\n")
    result = subprocess.run(
        [str(Path(sys.executable).parent / "openapi-python-client"), "generate", "--path", str(schema), "--config",
         str(config), "--meta", "none", "--output-path", str(tmp_path / "tierscope_client")],
        capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    sys.path.insert(0, str(tmp_path))
    try:
        yield importlib.import_module("tierscope_client"), token_create(user=admin_user, name="generated client",
                                                                        expires_days=None, now=timezone.now()).key
    finally:
        sys.path.remove(str(tmp_path))
        for name in [n for n in sys.modules if n == "tierscope_client" or n.startswith("tierscope_client.")]:
            del sys.modules[name]


def test_a_generated_client_lists_targets_and_reads_recommendations(live_server, generated, seed_tiers):
    build_target(name="big", segments=25)
    package, key = generated
    targets_list = importlib.import_module("tierscope_client.api.targets.targets_list")
    recommendations_list = importlib.import_module("tierscope_client.api.targets.recommendations_list")
    # An API token, as a script would use it: the schema's bearer scheme, no session.
    client = package.AuthenticatedClient(base_url=live_server.url, token=key)

    by_name = importlib.import_module("tierscope_client.models").RecommendationsListSort("name")

    targets = targets_list.sync(client=client)
    seen, page = [], recommendations_list.sync("big", client=client, limit=10, sort=by_name)
    while True:
        seen += [row.segment_id for row in page.results]
        if not page.next_cursor:
            break
        page = recommendations_list.sync("big", client=client, limit=10, sort=by_name, after=page.next_cursor)

    assert [t.name for t in targets.results] == ["big"]
    assert targets.results[0].segments == 25
    assert len(seen) == len(set(seen)) == 25
    assert page.run.statistic == "p95"
