"""Every operation of the OpenAPI schema, fuzzed by schemathesis against a real HTTP server on loopback, signed
in as an admin by an API token, as a script is, on a target with segments, recommendations, runs and a plan: no answer is
a server error, and every answer matches the schema (status, content type, body)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from django.test import Client
from django.utils import timezone

from apps.apitokens.services import token_create
from apps.tiering.plans.services import plan_create
from tests.dashboard.factories import build_target

pytestmark = pytest.mark.fuzz

CHECKS = "not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance"


@pytest.fixture
def fleet(transactional_db, seed_tiers, admin_user):
    target = build_target(name="big", segments=40)
    plan = plan_create(target=target, author=admin_user, author_name="ada", all_worth_moving=True)
    return target, plan


def test_every_operation_answers_within_its_schema_and_never_a_server_error(live_server, fleet, admin_user, tmp_path):
    target, plan = fleet
    client = Client()
    client.force_login(admin_user)
    key = token_create(user=admin_user, name="schemathesis", expires_days=None, now=timezone.now()).key
    config = tmp_path / "schemathesis.toml"
    # The ids of rows that exist, so that fuzzing reaches past the 404s; every other parameter is generated.
    config.write_text(
        "[parameters]\n"
        f'name = "{target.name}"\n'
        f"plan_id = {plan.pk}\n"
        f"run_id = {target.runs.first().pk}\n"
        f"segment_id = {target.segments.order_by('id').first().pk}\n"
    )
    schema = tmp_path / "schema.json"
    schema.write_bytes(client.get("/api/schema/?format=json").content)

    result = subprocess.run(
        [str(Path(sys.executable).parent / "schemathesis"), "--config-file", str(config), "run", str(schema),
         "--url", live_server.url, "--checks", CHECKS, "--max-examples", "10", "--no-shrink", "--seed", "7",
         "--phases", "examples,coverage,fuzzing", "--workers", "1", "--request-timeout", "30",
         "--max-time", "90", "-H", f"Authorization: Bearer {key}", "--warnings", "off"],
        capture_output=True, text=True, timeout=240, cwd=tmp_path,  # its cache stays in the test's directory
    )

    assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-2000:]
    assert "Tested: 19" in result.stdout and "No issues found" in result.stdout, result.stdout[-3000:]
