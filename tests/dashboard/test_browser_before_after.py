"""Before and after a move in a real browser: the demo's built-in move on its segment page, and a plan's
moves on the plan page once executed and collected; shot for the screenshots (`make screenshots` publishes them in docs/screenshots/) (segment_before_after,
plan_verdict)."""

from __future__ import annotations

import datetime as dt
import re

import pytest
import time_machine
from django.utils import timezone

from apps.dashboard.formatting import fmt_duration
from tests.browser import SHOTS, login

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def shot_of(page, selector: str, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.locator(selector).screenshot(path=str(SHOTS / f"{name}.png"))


class BeforeAfterBrowserTests:
    def test_the_demo_s_move_shows_its_windows_and_verdict_on_its_segment_page(
        self, page, live_server, admin_user, collected
    ):
        from apps.snapshots.models import SegmentMove
        from apps.tiering.moves.verdicts import move_comparison

        move = SegmentMove.objects.get(target=collected)
        comparison = move_comparison(move=move, before_days=7, after_days=7)
        login(page, live_server, admin_user.username)
        page.goto(f"{live_server.url}/targets/demo/segments/{move.segment_id}/")
        card = page.locator("#before-after")
        assert "Moved SOE_INDEX → FLASH_DATA at " in card.locator("h3").inner_text()
        assert card.locator(".ba-move").get_attribute("data-verdict") == "paid"
        assert card.locator(".verdict").inner_text() == f"paid {comparison.sentence}"
        cells = card.locator("tr[data-row=io_time] td")
        assert [cells.nth(i).inner_text() for i in range(2)] == [
            fmt_duration(comparison.before.io_time_s_per_day), fmt_duration(comparison.after.io_time_s_per_day)]
        assert card.locator("tr[data-row=flash] td").nth(1).inner_text() == "0.0%"

        # A shorter after-window through the form: 12 hours is too early for a verdict.
        page.fill("#ba-form input[name=after_days]", "0.5")
        page.click("#ba-form button[type=submit]")
        page.wait_for_url(re.compile(r"after_days=0\.5"))
        assert card.locator(".ba-move").get_attribute("data-verdict") == "too early"
        assert "the after-window holds 12 snapshots" in card.locator(".verdict").inner_text()
        page.fill("#ba-form input[name=after_days]", "7")
        page.click("#ba-form button[type=submit]")
        page.wait_for_url(re.compile(r"after_days=7"))
        assert card.locator(".ba-move").get_attribute("data-verdict") == "paid"
        shot_of(page, "#before-after", "segment_before_after")

    def test_a_plan_is_verified_once_its_moves_after_window_holds_enough_snapshots(
        self, page, live_server, admin_user, other_admin, collected
    ):
        from apps.snapshots.services import snapshot_collect
        from apps.tiering.models import Recommendation
        from apps.tiering.plans.services import plan_create, plan_transition

        recs = Recommendation.objects.current(target_id=collected.id).filter(
            action="move", segment__object_name__in=["ORDER_ITEMS_PK", "Cust Email Idx"])
        plan = plan_create(target=collected, author=admin_user, author_name="ada",
                           segment_ids=[rec.segment_id for rec in recs])
        plan_transition(plan_id=plan.pk, to="approved", user=other_admin)
        plan_transition(plan_id=plan.pk, to="executed", user=admin_user)
        login(page, live_server, admin_user.username)
        page.goto(f"{live_server.url}/plans/{plan.pk}/")
        assert page.locator("#plan-overall").inner_text().startswith("too early Too early: 2 moves: 2 too early")
        assert page.locator("#plan-next").is_disabled()
        assert "holds 0 snapshots, a verdict needs" in page.locator("#verify-refusal").inner_text()

        with time_machine.travel(timezone.now() + dt.timedelta(days=3)):
            run = snapshot_collect(target_id=collected.id, trigger="command")
            assert run.status == "succeeded", run.error
            page.goto(f"{live_server.url}/plans/{plan.pk}/")
            rows = page.locator("#verdict-table tbody tr[data-step]")
            assert [rows.nth(i).get_attribute("data-verdict") for i in range(rows.count())] == ["paid", "paid"]
            assert page.locator("#plan-overall").inner_text().startswith("paid Paid: 2 moves: 2 paid; IO time ")
            assert page.locator("#plan-next").is_enabled()
            shot_of(page, "#plan-verdict", "plan_verdict")
            # On a laptop the verdict table shows every column and each step's sentence without scrolling aside.
            page.set_viewport_size({"width": 1366, "height": 768})
            scroll = page.locator("#verdict-table").evaluate(
                "(table) => [table.parentElement.scrollWidth, table.parentElement.clientWidth]")
            assert scroll[0] <= scroll[1], f"the verdict table scrolls sideways: {scroll}"
            page.click("#plan-next")
            page.wait_for_url(re.compile(rf"/plans/{plan.pk}/$"))
            assert page.locator("#plan-state").inner_text() == "verified"
