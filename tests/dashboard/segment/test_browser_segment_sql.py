"""The segment page's "SQL driving this segment" card in a real browser, on the demo."""

from __future__ import annotations

import pytest

from tests.browser import SHOTS, login

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]



class SegmentSqlBrowserTests:
    def test_the_segment_page_names_the_sql_driving_it_and_when_to_tune_it(
        self, page, live_server, admin_user, collected
    ):
        from apps.dashboard.segment.body import read_latency
        from apps.dashboard.segment.sql_card import segment_sql_card
        from apps.tiering.models import Recommendation

        current = list(Recommendation.objects.current(target_id=collected.id).select_related("segment", "run").filter(
            segment__object_name="ORDERS", segment__object_type="TABLE PARTITION"))
        hottest = max(current, key=lambda rec: rec.read_requests_per_day or 0)
        cards = {rec.segment_id: segment_sql_card(segment=rec.segment, target=collected, current=rec,
                                                  latency=read_latency(rec.segment, rec)) for rec in current}
        noted = max((rec for rec in current if cards[rec.segment_id].note),
                    key=lambda rec: cards[rec.segment_id].note.io_s_per_day)

        login(page, live_server, admin_user.username)
        # The hottest partition: the order lookup by status full-scans it, the key lookup reads it too.
        page.goto(f"{live_server.url}/targets/demo/segments/{hottest.segment_id}/")
        rows = page.locator("#segment-sql-table tbody tr")
        assert rows.count() == 2
        assert rows.nth(0).locator("td").nth(0).inner_text().startswith("8fz2kq1m4d7xa")
        assert "full scan" in rows.nth(0).inner_text() and "order_status = :status" in rows.nth(0).inner_text()

        # A partition the recommendation keeps, scanned by the same statement: tune it, the move saves nothing.
        page.goto(f"{live_server.url}/targets/demo/segments/{noted.segment_id}/")
        note = page.locator("#sql-tuning-note")
        assert note.is_visible()
        assert "SQL_ID 8fz2kq1m4d7xa full-scans SOE.ORDERS." in note.inner_text()
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.locator("#segment-sql").screenshot(path=str(SHOTS / "segment_sql.png"))
