"""Move plans in a real browser: an admin makes one from the demo's recommendations, another approves it;
the pages are shot for the screenshots (`make screenshots` publishes them in docs/screenshots/) (plans, plan_new, plan_detail)."""

from __future__ import annotations

import re

import pytest

from apps.dashboard.formatting import fmt_duration
from tests.browser import login, plan_approve, shot, signed_in_page
from tests.tiering.plans.script_reading import parsed_steps

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


class PlanBrowserTests:
    def test_an_admin_makes_a_plan_another_approves_it_and_its_script_checks_the_dbid(
        self, browser, page, live_server, admin_user, other_admin, collected
    ):
        from apps.tiering.plans.models import Plan

        login(page, live_server, admin_user.username)
        page.click("nav a:text('Plans')")
        page.wait_for_url(re.compile(r"/plans/$"))
        page.click("a:text('New plan for demo')")
        page.wait_for_url(re.compile(r"/targets/demo/plans/new/$"))
        assert page.locator("#offered-table tbody tr[data-segment-id]").count() > 0
        page.check("input[name=mode][value=worth]")
        page.fill("#id_note", "CHG-2041, Saturday 02:00")
        shot(page, "plan_new")
        page.click("#make-plan")
        page.wait_for_url(re.compile(r"/plans/\d+/$"))
        plan = Plan.objects.get()
        assert page.locator("#plan-state").inner_text() == "draft"
        assert page.locator("#approve-note").is_visible()  # its author cannot approve it
        rows = page.locator("#steps-table tbody tr[data-step]")
        assert rows.count() == min(plan.steps_count, 200)
        phases = [rows.nth(i).get_attribute("data-phase") for i in range(rows.count())]
        assert phases == sorted(phases, key=["table", "partition", "index", "other", "hint"].index)
        # The estimate where every move has one; else unknown, never a smaller sum.
        expected = "unknown" if plan.seconds is None else fmt_duration(plan.seconds)
        assert expected in page.locator("#plan-totals [data-col=seconds]").inner_text()
        with page.expect_download() as download:
            page.click("#export-sql")
        head, steps = parsed_steps(open(download.value.path(), encoding="utf-8").read())
        assert "WHENEVER SQLERROR EXIT FAILURE" in head and f"DEFINE plan_dbid = {plan.dbid}" in head
        assert len(steps) == plan.steps_count

        # Another admin approves it; the page says who.
        with signed_in_page(browser, live_server, other_admin.username) as other:
            plan_approve(other, live_server, plan.pk)
            assert other.locator("#plan-state").inner_text() == "approved"
            assert other.locator("[data-col=approved]").inner_text().endswith("by bob")
            shot(other, "plan_detail")
            other.goto(f"{live_server.url}/plans/")
            assert other.locator(f"#plans-table tr[data-plan='{plan.pk}'] [data-col=state]").inner_text() == "approved"
            shot(other, "plans")
        plan.refresh_from_db()
        assert (plan.state, plan.approved_by_name) == ("approved", "bob")
