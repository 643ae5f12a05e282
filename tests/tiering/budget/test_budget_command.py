"""`manage.py budget`: a fleet budget of one tier from the command line, and the plans it implies."""

from __future__ import annotations

import csv
import io
import json

import pytest
from django.core.management import CommandError

from apps.tiering.budget.models import BudgetRun
from apps.tiering.plans.models import Plan
from tests.commands import command_output


@pytest.fixture
def collected(collected_shared):
    return collected_shared  # one collection for the module's tests (tests/conftest.py collected_for_module)


def _run(*args: str) -> str:
    return command_output("budget", *args)


@pytest.mark.django_db
class BudgetCommandTests:
    def test_it_prints_the_split_per_target_with_the_fleet_total_and_the_marginal_gb(self, collected):
        said = _run("--tier", "flash", "--gb", "5")

        assert said.startswith("fleet budget 5 GB of flash: flash at $0.5000/GB-month")
        assert "demo" in said and "fleet" in said
        assert "one more GB would earn $" in said
        assert "moves_in -> flash" in said and "evicted -> " in said  # 5 GB is less than the demo's flash now

    def test_it_gives_json_with_segments_and_the_plans_it_made(self, collected):
        result = json.loads(_run("--tier", "flash", "--gb", "1000", "--format", "json", "--plan"))

        demo = result["targets"][0]
        assert result["budget"] == "1,000 GB" and demo["target"] == "demo"
        assert demo["moves_in"] > 0 and demo["saving_usd_per_month"] == pytest.approx(
            demo["recommended_saving_usd_per_month"])
        assert result["totals"]["moves_in"] == demo["moves_in"]
        assert len(result["segments"]) == demo["moves_in"] + demo["moves_out"]
        plan = Plan.objects.get(pk=result["plans"][0]["plan"])
        assert (plan.state, plan.source, plan.target.name) == ("draft", "fleet budget 1,000 GB of flash", "demo")
        assert plan.moves_count == demo["moves_in"] + demo["moves_out"]

    def test_it_gives_a_csv_row_per_target(self, collected):
        rows = list(csv.DictReader(io.StringIO(_run("--tier", "flash", "--usd-per-month", "20", "--format", "csv"))))

        # $20 a month at $0.50/GB-month is 40 GB.
        assert [row["target"] for row in rows] == ["demo"]
        assert rows[0]["budget"] == "$20.00/month" and float(rows[0]["gb_after"]) <= 40

    def test_it_says_in_one_line_what_is_wrong(self, collected):
        for args, said in ((("--tier", "nvme", "--gb", "5"), "unknown tier 'nvme'; the enabled targets' tiers are"),
                           (("--tier", "flash", "--gb", "0"), "a budget must be a number above 0"),
                           (("--tier", "flash", "--usd-per-month", "-3"), "a budget must be a number above 0"),
                           (("--tier", "EBS gp3", "--gb", "5"), "no enabled target has tier 'EBS gp3'")):
            with pytest.raises(CommandError, match=said) as raised:
                _run(*args)
            assert "\n" not in str(raised.value)

    def test_it_remembers_a_split_on_purpose_and_its_places_are_held_next_time(self, collected):
        first = _run("--tier", "flash", "--gb", "5", "--remember")
        again = json.loads(_run("--tier", "flash", "--gb", "5", "--format", "json"))

        run = BudgetRun.objects.get()
        assert "places held: the segments on flash now (no budget of it remembered yet)" in first
        assert (run.how, run.budget_gb) == ("remembered on purpose (manage.py budget --remember)", 5.0)
        assert again["previous"]["chosen"] == run.chosen_count > 0 and again["previous"]["budget"] == "5 GB"
        # 5 GB is less than the demo holds on flash: each eviction says what it costs and what takes its room.
        assert again["evictions"] and all(e["words"].startswith("evicted from flash by the fleet budget: it loses $")
                                          for e in again["evictions"])
        assert sum(again["kept_counts"].values()) == len(again["kept"]) > 0
        assert again["margin"] == 0.25 and again["horizon_months"] == 3.0
