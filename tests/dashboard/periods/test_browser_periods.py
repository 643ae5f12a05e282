"""The period picker and the comparison of two periods in a real browser, on the demo target; shot for
the screenshots (`make screenshots` publishes them in docs/screenshots/) (period-picker, compare-periods)."""

from __future__ import annotations

import datetime as dt
import re

import pytest

from tests.browser import SHOTS, assert_drawn, login

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


class PeriodBrowserTests:
    def test_a_dba_chooses_a_period_then_compares_two(self, page, live_server, admin_user, collected):
        from apps.snapshots.models import Snapshot

        last = Snapshot.objects.filter(target=collected).latest("end_at").end_at.astimezone(dt.timezone.utc).date()
        first = last - dt.timedelta(days=3)
        login(page, live_server, admin_user.username)
        page.set_viewport_size({"width": 1400, "height": 1000})

        page.goto(f"{live_server.url}/targets/demo/recommendations/?per_page=25")
        assert "Figures of the recommendations' window" in page.locator("#period-default").inner_text()
        page.select_option("select[name=period]", "custom")
        page.fill("input[name=from]", first.isoformat())
        page.fill("input[name=to]", (last - dt.timedelta(days=1)).isoformat())
        page.select_option("select[name=stat]", "avg")
        page.click("#period-apply")
        page.wait_for_url(re.compile(r"period=custom.*stat=avg"))
        banner = page.locator("#period-banner").inner_text()
        assert banner.startswith(f"IO figures for {first.day}") and "average" in banner
        assert "recommended tiers and the money are the recommendations' own" in banner
        assert page.locator("#segments-table th").nth(4).inner_text().startswith("IO/s (")
        assert "per_page=25" in page.url  # the table's own parameters carried on
        page.locator("#period-picker").scroll_into_view_if_needed()
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / "period-picker.png"))

        # A reversed range: a message, and the recommendations' window.
        page.fill("input[name=from]", last.isoformat())
        page.fill("input[name=to]", first.isoformat())
        page.click("#period-apply")
        page.wait_for_selector("#period-error")
        assert "before its From" in page.locator("#period-error").inner_text()

        # The target page's scatter and skew drawn over the period.
        page.goto(f"{live_server.url}/targets/demo/?period=7d&stat=avg")
        assert "IO skew charts and the skew KPI show the period's whole days" in page.locator("#period-banner").inner_text()
        for canvas in ("chart-scatter", "chart-skew"):
            assert_drawn(page, canvas)

        page.goto(f"{live_server.url}/targets/demo/")
        page.click("#compare-link")
        page.wait_for_url(re.compile(r"/targets/demo/compare/"))
        page.fill("input[name=a_from]", (last - dt.timedelta(days=6)).isoformat())
        page.fill("input[name=a_to]", (last - dt.timedelta(days=4)).isoformat())
        page.fill("input[name=b_from]", (last - dt.timedelta(days=2)).isoformat())
        page.fill("input[name=b_to]", last.isoformat())
        page.click("#compare-apply")
        page.wait_for_url(re.compile(r"b_to="))
        rows = page.locator("#compare-table tbody tr[data-segment-id]")
        assert rows.count() > 0
        assert "measured in both" in page.locator("#compare-counts").inner_text()
        # Sorted by the largest rise: the first row's change is the largest.
        page.click("#compare-table th >> text=rise")
        page.wait_for_url(re.compile(r"sort=rise"))
        first_change = page.locator("#compare-table tbody tr td[data-col=change]").first.inner_text()
        assert first_change.startswith("+") or first_change == "unknown"
        box = page.locator("#compare-periods").bounding_box()
        page.screenshot(path=str(SHOTS / "compare-periods.png"), full_page=True,
                        clip={"x": box["x"], "y": box["y"], "width": box["width"], "height": min(box["height"], 900)})
