"""The fleet page's flash budget card in a real browser: split, read, make the plans (CSP-clean)."""

from __future__ import annotations

import re

import pytest

from tests.browser import assert_no_csp_violation, login, shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


class BudgetBrowserTests:
    def test_it_splits_a_flash_budget_and_makes_the_plans_it_implies(
        self, page, live_server, admin_user, collected, csp_violations
    ):
        from apps.tiering.budget.services import fleet_budget
        from apps.tiering.plans.models import Plan

        expected = fleet_budget(tier_name="flash", gb=5)
        login(page, live_server, admin_user.username)

        # The card's form: tier, amount, unit; a GET on the fleet page.
        page.select_option("#id_budget_tier", "flash")
        page.fill("#id_budget_amount", "5")
        page.select_option("#id_budget_unit", "gb")
        page.click("#budget-split")
        page.wait_for_url(re.compile(r"budget_tier=flash"))
        demo = page.locator("#budget-table tr[data-target=demo]")
        result = expected.split.targets[0]
        assert demo.locator("[data-col=moves_in]").inner_text().startswith(str(result.moves_in))
        assert page.locator("#budget-table tr[data-target=Fleet]").count() == 1
        # 5 GB is less than the demo holds on flash: what is worth least per GB there is evicted.
        assert result.evicted > 0 and demo.locator("[data-col=evicted]").inner_text().startswith(str(result.evicted))
        assert "One more GB would earn $" in page.locator("#budget-summary").inner_text()
        page.click("#budget-segments summary")
        assert page.locator("#budget-segments tbody tr").count() == len(expected.segments())
        # Each eviction: what it costs, and what takes its room; no budget remembered yet.
        assert "No budget of flash is remembered yet" in page.locator("#budget-memory").inner_text()
        page.click("#budget-evictions summary")
        evictions = expected.evictions()
        assert page.locator("#budget-evictions tbody tr").count() == len(evictions)
        first = page.locator(f"#budget-evictions tr[data-segment='{evictions[0].segment_id}']")
        assert first.locator("[data-col=loses]").inner_text().startswith("$")
        page.locator("#budget").scroll_into_view_if_needed()
        shot(page, "fleet_budget")
        assert_no_csp_violation(page, csp_violations)

        # Make the plans: a draft for the demo, linked from the card.
        page.click("#budget-make-plans")
        page.wait_for_url(re.compile(r"budget_made=\d+"))
        plan = Plan.objects.get()
        assert plan.source == "fleet budget 5 GB of flash" and plan.state == "draft"
        # Making the plans remembered the split: its segments hold their places in the next one.
        assert "Remembers the budget of" in page.locator("#budget-memory").inner_text()
        page.click(f"#budget-plans a[href='/plans/{plan.pk}/']")
        page.wait_for_url(re.compile(rf"/plans/{plan.pk}/$"))
        assert "fleet budget 5 GB of flash" in page.content()
        assert "evicted from flash by the fleet budget: it loses $" in page.content()  # the eviction's step says why
        assert_no_csp_violation(page, csp_violations)
