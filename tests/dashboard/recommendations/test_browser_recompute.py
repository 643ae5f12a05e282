"""A report target in a real browser: its labels name the one 22-hour interval its report covers, and
Recompute applies a changed tablespace map through the worker while the page follows it."""

from __future__ import annotations

import re

import pytest

from tests.browser import login, shot
from tests.dashboard.report_target import REPORT_22H_SPAN, report_imported

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def ppd(seed_tiers, django_capture_on_commit_callbacks):
    # Imported (and its refresh run) before the worker starts: eager, in this process.
    return report_imported(django_capture_on_commit_callbacks)


class RecomputeBrowserTests:
    @pytest.mark.worker
    def test_recompute_applies_a_map_change_through_the_worker_and_the_page_follows_it(
        self, page, live_server, admin_user, ppd, celery_worker_queue
    ):
        from apps.targets.models import TablespaceTier
        from apps.tiering.models import Refresh, Tier

        login(page, live_server, admin_user.username)
        page.goto(f"{live_server.url}/targets/ppd/")
        header = page.locator("#segments-table thead th", has_text="IOPS")
        assert header.inner_text() == "IOPS (one 22 h interval)"
        assert page.locator("#window-facts").inner_text() == f"one snapshot interval of 22 h, {REPORT_22H_SPAN}"
        tablespace = page.locator("#segments-table tbody tr td:nth-child(3)", has_text="EPS_TDS_TBLSPC").first
        assert tablespace.locator("xpath=../td[7]").inner_text() == "unmapped"

        TablespaceTier.objects.create(target=ppd, tablespace_name="EPS_TDS_TBLSPC",
                                      tier=Tier.objects.get(tier_set=ppd.tier_set, name="flash"))
        page.click("#recompute")
        page.wait_for_url(re.compile(r"/targets/ppd/$"))
        assert "Recompute of ppd queued" in page.locator("ul.messages").first.inner_text()
        # The worker runs it. When the page was drawn before it was done, the page follows it without a
        # reload, then offers one; when the worker was quicker than the redirect, the page drawn already shows
        # the new figures (a race of the real worker, which made this test fail now and then).
        rendered = page.locator("#refresh-state").get_attribute("data-status")
        if rendered in ("queued", "running"):
            page.wait_for_function("() => document.getElementById('refresh-state').dataset.status === 'succeeded'",
                                   timeout=120_000)
            page.locator("#refresh-state [data-role=reload]").wait_for()
            page.click("#refresh-state [data-role=reload]")
            page.wait_for_load_state("load")
        else:
            assert rendered == "succeeded"
        refresh = Refresh.objects.filter(target=ppd).order_by("-queued_at", "-id").first()
        assert refresh.status == "succeeded" and refresh.after_run is None
        tablespace = page.locator("#segments-table tbody tr td:nth-child(3)", has_text="EPS_TDS_TBLSPC").first
        assert tablespace.locator("xpath=../td[7]").inner_text() == "flash"
        assert page.locator("#segments-table thead th", has_text="IOPS").inner_text() == "IOPS (one 22 h interval)"
        shot(page, "target_report")
