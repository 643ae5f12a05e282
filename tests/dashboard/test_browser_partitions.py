"""The segment page of a partitioned table in a real browser: heat by partition age (apps.tiering.lifecycle)."""

from __future__ import annotations

import pytest

# The browser tests' own helpers; csp_violations is autouse there and, imported, here: any CSP violation fails.
from tests.dashboard.test_browser import assert_drawn, collected, csp_violations, login, shot  # noqa: F401, F811

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


class PartitionHeatBrowserTests:
    def test_the_segment_page_of_a_partition_draws_its_tables_heat_by_partition_age(
        self, page, live_server, admin_user, collected  # noqa: F811
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
