"""manage.py whatif and recommend, end to end through Django's command runner."""

from __future__ import annotations

import json
import subprocess
import sys
from decimal import Decimal
from pathlib import Path

import pytest
from django.core.management import CommandError
from django.db.models import F, Sum

from tests.commands import command_output

FIXTURES = Path(__file__).resolve().parent / "fixtures"
ROOT = Path(__file__).resolve().parents[2]


class WhatIfCommandTests:
    def test_it_prints_the_seed_example_as_json(self):
        report = json.loads(command_output("whatif", "--tiers", str(FIXTURES / "example_tiers.json"),
                                           "--objects", str(FIXTURES / "example_objects.csv"), "--format", "json"))

        assert set(report) == {"tiers", "break_even", "objects", "placements", "cost_unit", "amortisation_months"}
        assert (report["cost_unit"], report["amortisation_months"]) == ("USD purchase", 60)
        totals = {p["name"]: p["total_cost"] for p in report["placements"]}
        assert totals["recommended"] == 18000
        assert totals["all on fast disk"] == 28200
        assert totals["all on flash"] == 28800
        assert totals["optimized"] <= 18000

    def test_it_needs_no_database(self):
        # A fresh interpreter with a DATABASE_URL that points nowhere still answers.
        env = {"PATH": "/usr/bin:/bin", "SECRET_KEY": "x", "DATABASE_URL": "postgres://u:p@127.0.0.1:9/none",
               "REDIS_URL": "redis://127.0.0.1:9/0", "TIERSCOPE_ENV_FILE": "/nonexistent",
               "TIERSCOPE_FERNET_KEY": "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="}
        result = subprocess.run(
            [sys.executable, "manage.py", "whatif", "--tiers", str(FIXTURES / "example_tiers.json"),
             "--objects", str(FIXTURES / "example_objects.csv"), "--format", "csv"],
            cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
        )
        assert result.returncode == 0, result.stderr
        assert result.stdout.startswith("object,iops,gb,")

    def test_bad_input_exits_non_zero_with_one_line_naming_file_line_and_field(self, tmp_path):
        objects = tmp_path / "objects.csv"
        objects.write_text("name,iops,gb\nA,10,300\nB,-4,600\n")

        with pytest.raises(CommandError) as raised:
            command_output("whatif", "--tiers", str(FIXTURES / "example_tiers.json"), "--objects", str(objects))

        message = str(raised.value)
        assert "\n" not in message
        assert "objects.csv" in message and "line 3" in message and "iops" in message


@pytest.mark.django_db
class RecommendCommandTests:
    def test_its_csv_is_the_export_of_the_current_recommendations(self, demo_target, collect):
        from apps.tiering.recommendations.export import HEADER, export_csv, export_rows
        from apps.tiering.recommendations.selectors import recommendation_list

        collect(demo_target)

        csv_text = command_output("recommend", "demo", "--format", "csv")

        assert csv_text.splitlines()[0] == ",".join(HEADER)
        assert csv_text == export_csv(export_rows(recommendation_list(target_id=demo_target.id), demo_target))
        assert len(csv_text.splitlines()) > 60

    def test_its_csv_written_in_small_parts_is_the_same_text(self, demo_target, monkeypatch, collect):
        from apps.tiering.recommendations import export

        collect(demo_target)
        whole = command_output("recommend", "demo", "--format", "csv")
        monkeypatch.setattr(export, "CHUNK_ROWS", 7)  # the demo's partitioned tables span several parts

        assert command_output("recommend", "demo", "--format", "csv") == whole
        assert "partitions of" in whole  # the partition-skew reason, worded from partitions of other parts

    def test_json_and_table_carry_the_same_rows(self, demo_target, collect):

        collect(demo_target)

        rows = json.loads(command_output("recommend", "demo", "--format", "json"))
        table = command_output("recommend", "demo", "--format", "table")
        assert len(rows) == len(table.strip().splitlines()) - 2
        assert {"owner", "savings_usd", "ddl"} <= set(rows[0])

    def test_an_unknown_target_is_named(self, db):
        with pytest.raises(CommandError, match="nosuch"):
            command_output("recommend", "nosuch")

    def test_refresh_rebuilds_a_report_target_after_a_map_change_and_says_what_it_did(
        self, seed_tiers, django_capture_on_commit_callbacks
    ):
        from apps.core.models import AuditLogEntry
        from apps.targets.models import TablespaceTier
        from apps.tiering.models import Recommendation, Refresh, Tier
        from tests.dashboard.report_target import REPORT_22H_SPAN, report_imported

        target = report_imported(django_capture_on_commit_callbacks)
        mapped = Recommendation.objects.current(target_id=target.id).filter(segment__tablespace_name="EPS_TDS_TBLSPC")
        TablespaceTier.objects.create(target=target, tablespace_name="EPS_TDS_TBLSPC",
                                      tier=Tier.objects.get(tier_set=target.tier_set, name="flash"))

        said = command_output("recommend", "ppd", "--refresh")

        count = mapped.count()
        assert count and set(mapped.values_list("current_tier__name", flat=True)) == {"flash"}
        assert said.startswith("ppd: recomputed from the stored snapshots in ")
        assert f"{Recommendation.objects.current(target_id=target.id).count()} recommendations; " in said
        assert f"{count} changed (current tier, recommended tier or action)" in said
        assert f"figures: one snapshot interval of 22 h, {REPORT_22H_SPAN}" in said
        assert Refresh.objects.filter(target=target).latest("queued_at").status == Refresh.Status.SUCCEEDED
        assert AuditLogEntry.objects.filter(additional_data__action="recommend --refresh").count() == 1
        # Again, with nothing changed since: said so; and the rows printed when a format is asked for.
        again = command_output("recommend", "ppd", "--refresh", "--format", "csv")
        assert "; nothing changed." in again.splitlines()[0] and again.splitlines()[2].startswith("target,owner,")

    def test_refresh_applies_a_tier_price_change_to_a_live_target(self, demo_target, collect):
        from apps.tiering.models import Recommendation, Tier

        collect(demo_target)
        before = Recommendation.objects.current(target_id=demo_target.id).aggregate(s=Sum("cost_now_usd"))["s"]
        Tier.objects.filter(tier_set=demo_target.tier_set).update(device_cost_usd=F("device_cost_usd") * 2)

        said = command_output("recommend", "demo", "--refresh")

        after = Recommendation.objects.current(target_id=demo_target.id).aggregate(s=Sum("cost_now_usd"))["s"]
        assert after == pytest.approx(2 * before, rel=Decimal("0.01"))
        assert said.startswith("demo: recomputed from the stored snapshots") and "figures: P95 of " in said


class ParseAwrReportCommandTests:
    def test_it_prints_the_parsed_report_as_json(self):
        sample = ROOT.parent / "shared" / "awr-samples" / "1newstar__awr2csv__sample__awr_11204_1.html"

        report = json.loads(command_output("parse_awr_report", str(sample), "--format", "json"))

        assert report["db_name"] and isinstance(report["dbid"], int)
        assert report["segments"] and "object_name" in report["segments"][0]

    def test_a_file_that_is_not_a_report_is_refused(self, tmp_path):
        bogus = tmp_path / "notes.txt"
        bogus.write_text("hello\n")

        with pytest.raises(CommandError, match="notes.txt"):
            command_output("parse_awr_report", str(bogus), "--format", "json")
