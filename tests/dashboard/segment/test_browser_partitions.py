"""The segment page of a partitioned table in a real browser: heat by partition age (apps.tiering.recommendations.lifecycle)."""

from __future__ import annotations

import pytest

from tests.browser import assert_drawn, login, shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


class PartitionHeatBrowserTests:
    def test_the_segment_page_of_a_partition_draws_its_tables_heat_by_partition_age(
        self, page, live_server, admin_user, collected
    ):
        from apps.snapshots.models import Segment
        from apps.tiering.models import Recommendation

        current = Recommendation.objects.current(target_id=collected.id).filter(
            segment__object_name="ORDERS", segment__object_type="TABLE PARTITION")
        hot = max(current, key=lambda rec: rec.intensity or 0)
        partitions = Segment.objects.filter(target=collected, object_name="ORDERS", object_type="TABLE PARTITION")

        login(page, live_server, admin_user.username)
        page.goto(f"{live_server.url}/targets/demo/segments/{hot.segment_id}/")

        assert_drawn(page, "chart-partitions")
        page.locator("#partition-table").evaluate("t => t.closest('details').open = true")
        rows = page.locator("#partition-table tbody tr")
        assert rows.count() == partitions.count() == 26
        # Oldest first; the page's own partition is the hot one, age 0; the two created ahead are newer (-1, -2).
        current_row = page.locator("#partition-table tbody tr.current")
        assert current_row.locator("td").nth(0).inner_text() == hot.segment.subobject_name
        assert current_row.locator("td").nth(1).inner_text() == "0"
        assert [rows.nth(i).locator("td").nth(1).inner_text() for i in (24, 25)] == ["-1", "-2"]
        shot(page, "segment_partitions")

    def test_the_segment_page_of_a_subpartition_shows_its_partition_summed_and_the_tables_heat_by_partition(
        self, page, live_server, admin_user, collected
    ):
        from apps.tiering.models import Recommendation

        current = Recommendation.objects.current(target_id=collected.id).filter(
            segment__object_name="ORDER_LINES", segment__object_type="TABLE SUBPARTITION").select_related("segment")
        hot = max(current, key=lambda rec: rec.intensity or 0)
        siblings = [rec for rec in current if rec.segment.parent_partition == hot.segment.parent_partition]

        login(page, live_server, admin_user.username)
        page.goto(f"{live_server.url}/targets/demo/segments/{hot.segment_id}/")

        assert page.locator("h1").inner_text() == (
            f"SOE.ORDER_LINES.{hot.segment.parent_partition}.{hot.segment.subobject_name}")
        assert page.locator("#seg-partitioning").inner_text() == "RANGE(ORDER_DATE)-HASH(ORDER_ID)"
        # Its partition: every subpartition listed, this one marked, their requests summed in the footer.
        rows = page.locator("#subpartition-table tbody tr")
        assert rows.count() == len(siblings) == 4
        assert page.locator("#subpartition-table tbody tr.current td").nth(0).inner_text() == hot.segment.subobject_name
        footer = page.locator("#subpartition-table tfoot th")
        assert footer.nth(2).inner_text() == str(sum(rec.read_requests for rec in siblings))
        # The table's heat: one point per partition (its subpartitions summed), the hot one this page's.
        assert_drawn(page, "chart-partitions")
        page.locator("#partition-table").evaluate("t => t.closest('details').open = true")
        heat_rows = page.locator("#partition-table tbody tr")
        assert heat_rows.count() == 5
        current_row = page.locator("#partition-table tbody tr.current")
        assert current_row.locator("td").nth(0).inner_text().startswith(hot.segment.parent_partition)
        assert "MOVE SUBPARTITION" in page.locator("#ddl-text").inner_text()
        shot(page, "segment_subpartition")
