"""The recommendation export carries its money's unit (issue 15, item 7): columns only appended, the set's own
unit named in ``cost_unit``, the per-month figures beside the old ones."""

from __future__ import annotations

import csv
import io
import json
from decimal import Decimal

import pytest

from apps.tiering.recommendations.export import HEADER, export_csv, export_json, export_rows, export_table
from apps.tiering.recommendations.selectors import recommendation_list
from apps.tiering.recommendations.services import recommendation_refresh
from tests.base import NOW
from tests.tiering.stored_targets import cold_partitions_store

# The header as it was before money got its unit: these columns keep their names and places.
HEADER_BEFORE = (
    "target", "owner", "object_name", "subobject_name", "object_type", "tablespace_name", "size_gb", "iops",
    "read_iops", "write_iops", "intensity", "statistic", "window_days", "current_tier", "recommended_tier",
    "action", "cost_now_usd", "cost_after_usd", "savings_usd", "io_time_saved_s_per_day", "reasons", "ddl",
    "computed_at", "measured", "iops_bound",
)
MONEY = ("cost_unit", "cost_now_usd_per_month", "cost_after_usd_per_month", "savings_usd_per_month")
WINDOW = ("window", "window_start", "window_end", "window_intervals")


def _csv_rows(target) -> list[dict[str, str]]:
    text = export_csv(export_rows(recommendation_list(target_id=target.id), target))
    return list(csv.DictReader(io.StringIO(text)))


@pytest.mark.django_db
class ExportMoneyTests:
    def test_it_only_appends_the_unit_and_the_monthly_figures(self):
        assert HEADER[:len(HEADER_BEFORE)] == HEADER_BEFORE
        assert HEADER[len(HEADER_BEFORE):len(HEADER_BEFORE) + len(MONEY)] == MONEY

    def test_it_names_a_purchase_and_gives_its_monthly_figure_over_the_set_s_months(self, demo_target, collect):
        collect(demo_target)

        rows = [row for row in _csv_rows(demo_target) if row["cost_now_usd"]]
        assert rows and {row["cost_unit"] for row in rows} == {"USD purchase"}
        for row in rows:
            assert Decimal(row["cost_now_usd_per_month"]) == round(Decimal(row["cost_now_usd"]) / 60, 4)
            assert Decimal(row["savings_usd_per_month"]) == round(Decimal(row["savings_usd"]) / 60, 4)

    def test_it_names_a_monthly_bill_and_keeps_its_figures(self, db, seed_tiers):
        from apps.targets.models import TablespaceTier, Target
        from apps.tiering.models import Tier, TierSet

        # Each cold partition saves cents a month: no minimum, so that they move and the figures show it.
        TierSet.objects.filter(name="aws-ebs").update(min_saving_usd_per_month=0)
        target = Target.objects.create(name="c1", mode=Target.Mode.DEMO, tier_set_id="aws-ebs")
        TablespaceTier.objects.create(target=target, tablespace_name="COLD", tier=Tier.objects.get(name="EBS gp3"))
        cold_partitions_store(target)
        recommendation_refresh(target_id=target.id, now=NOW)

        rows = _csv_rows(target)
        assert {(row["cost_unit"], row["cost_now_usd_per_month"], row["cost_after_usd_per_month"]) for row in rows} == {
            ("USD/month", "0.8", "0.45")}
        document = json.loads(export_json(export_rows(recommendation_list(target_id=target.id), target)))
        assert document[0]["cost_unit"] == "USD/month" and document[0]["savings_usd_per_month"] == 0.35
        table = export_table(export_rows(recommendation_list(target_id=target.id), target))
        assert "cost_unit" in table.splitlines()[0] and "USD/month" in table


@pytest.mark.django_db
class ExportWindowTests:
    """The export says the span its figures cover (issue 15, item 11): window_days stays the configured 7."""

    def test_it_appends_the_window_after_the_money(self):
        assert HEADER[len(HEADER_BEFORE) + len(MONEY):len(HEADER_BEFORE) + len(MONEY) + len(WINDOW)] == WINDOW

    def test_a_single_22_hour_report_is_one_22_hour_interval_in_csv_and_json(
        self, seed_tiers, django_capture_on_commit_callbacks
    ):
        from tests.dashboard.report_target import report_imported

        target = report_imported(django_capture_on_commit_callbacks)

        rows = _csv_rows(target)
        assert rows and {(row["window_days"], row["window"], row["window_start"], row["window_end"],
                          row["window_intervals"]) for row in rows} == {
            ("7", "one 22 h interval", "2023-12-23T05:59:38+00:00", "2023-12-24T04:00:45+00:00", "1")}
        document = json.loads(export_json(export_rows(recommendation_list(target_id=target.id), target)))
        assert {(row["window"], row["window_intervals"]) for row in document} == {("one 22 h interval", 1)}

    def test_the_streamed_csv_carries_the_same_window(self, seed_tiers, django_capture_on_commit_callbacks):
        from apps.tiering.recommendations.export import export_csv_parts
        from tests.dashboard.report_target import report_imported

        target = report_imported(django_capture_on_commit_callbacks)

        streamed = "".join(export_csv_parts(recommendation_list(target_id=target.id), target))
        assert streamed == export_csv(export_rows(recommendation_list(target_id=target.id), target))
        assert ",one 22 h interval,2023-12-23T05:59:38+00:00," in streamed


@pytest.mark.django_db
class ExportPaybackTests:
    """Issue 16: ``payback_days`` appended; every column before it stays in its place."""

    def test_it_appends_payback_days_after_every_earlier_column(self):
        assert HEADER[:len(HEADER_BEFORE)] == HEADER_BEFORE
        assert HEADER[len(HEADER_BEFORE):len(HEADER_BEFORE) + len(MONEY) + len(WINDOW)] == MONEY + WINDOW
        assert HEADER.index("payback_days") == len(HEADER_BEFORE) + len(MONEY) + len(WINDOW)

    def test_it_gives_each_move_its_payback_days_and_leaves_the_rest_empty(self, demo_target, collect):
        from apps.tiering.models import TierSet

        TierSet.objects.filter(name="seed-2009").update(move_cost_usd=Decimal("50"))
        collect(demo_target)

        rows = _csv_rows(demo_target)
        paid = [row for row in rows if row["action"] == "move" and row["payback_days"]]
        # A $50 move over a saving a month: days (a lifecycle move ahead of its heat saves nothing: empty).
        assert paid and all(float(row["payback_days"]) > 0 for row in paid)
        assert all(row["payback_days"] == "" for row in rows if row["action"] in ("keep", "not_movable"))
