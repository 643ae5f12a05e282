"""`manage.py plan create|show|export` (PostgreSQL)."""

from __future__ import annotations

import csv
import io

import pytest
from django.core.management import CommandError, call_command

from apps.tiering.plans.models import Plan
from tests.tiering.plans.script_reading import REBUILD, parsed_steps

pytestmark = pytest.mark.django_db


@pytest.fixture
def collected(collected_shared):
    return collected_shared  # one collection for the module's tests (tests/conftest.py collected_for_module)


def run(*args: str) -> str:
    from io import StringIO

    out = StringIO()
    call_command("plan", *args, stdout=out, stderr=StringIO())
    return out.getvalue()


class PlanCommandTests:
    def test_it_creates_shows_and_exports_a_plan(self, collected, tmp_path):
        said = run("create", "demo", "--all-worth-moving", "--note", "night of the 3rd")
        plan = Plan.objects.get()
        assert said.startswith(f"plan {plan.pk}: {plan.steps_count} steps (all worth moving)")
        assert plan.created_by is None and plan.created_by_name.startswith("manage.py plan (os user ")
        shown = run("show", str(plan.pk))
        assert f"plan {plan.pk}: target demo, DBID {plan.dbid}, draft" in shown and "NOT APPROVED" in shown
        run("export", str(plan.pk), "--format", "sql", "--output", str(tmp_path / "plan.sql"))
        head, steps = parsed_steps((tmp_path / "plan.sql").read_text())
        assert f"DEFINE plan_dbid = {plan.dbid}" in head and len(steps) == plan.steps_count
        # The demo's moves: every table's before any index rebuild.
        order = [n for n, (_, statements) in enumerate(steps) for s in statements if REBUILD.match(s)]
        tables = [n for n, (prompt, _) in enumerate(steps) if "(table)" in prompt or "(partition)" in prompt]
        assert not order or not tables or max(tables) < min(order)
        rows = list(csv.reader(io.StringIO(run("export", str(plan.pk), "--format", "csv"))))
        assert len(rows) == plan.steps_count + 1 and rows[0][:4] == ["plan_id", "target", "dbid", "state"]

    def test_bad_input_is_one_line(self, collected):
        with pytest.raises(CommandError, match="No target named 'nope'"):
            run("create", "nope", "--all-worth-moving")
        with pytest.raises(CommandError, match="--budget-gb needs --tier NAME"):
            run("create", "demo", "--budget-gb", "10")
        with pytest.raises(CommandError, match="No plan 999"):
            run("show", "999")
