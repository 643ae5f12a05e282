"""The fleet page's budget card and its "make the plans" (apps.dashboard.budget.views), through the test client."""

from __future__ import annotations

import pytest
from django.urls import reverse

from apps.tiering.plans.models import Plan

SPLIT = {"budget_tier": "flash", "budget_amount": "20", "budget_unit": "gb"}
SPLIT_SMALL = {**SPLIT, "budget_amount": "2"}


@pytest.fixture
def collected(collected_shared):
    return collected_shared  # one collection for the module's tests (tests/conftest.py collected_for_module)


@pytest.mark.django_db
class BudgetCardTests:
    def test_it_offers_the_form_and_splits_on_a_get_of_the_fleet_page(self, viewer_client, collected):
        blank = viewer_client.get(reverse("dashboard:fleet"))
        split = viewer_client.get(reverse("dashboard:fleet"), SPLIT)

        assert blank.status_code == split.status_code == 200
        assert b'id="budget-form"' in blank.content and blank.context["budget"] is None
        budget = split.context["budget"]
        assert budget.source == "fleet budget 20 GB of flash"
        assert [row["name"] for row in split.context["budget_rows"]] == ["demo", "Fleet"]
        # A viewer sees the split, not the admins' button.
        assert b'id="budget-table"' in split.content and b'id="budget-make-plans"' not in split.content

    def test_it_says_what_is_wrong_with_the_budget_asked(self, viewer_client, collected):
        for params, said in (({**SPLIT, "budget_tier": "nvme"}, b"Select a valid choice"),
                             ({**SPLIT, "budget_amount": "0"}, b"greater than or equal to 0.001")):
            response = viewer_client.get(reverse("dashboard:fleet"), params)

            assert response.status_code == 200 and said in response.content
            assert response.context["budget"] is None

    def test_it_refuses_the_plans_to_a_viewer(self, viewer_client, collected):
        response = viewer_client.post(reverse("dashboard:budget_plans"), SPLIT)

        assert response.status_code == 403 and not Plan.objects.exists()

    def test_it_makes_the_plans_for_an_admin_and_links_them_from_the_card(self, admin_client, collected):
        response = admin_client.post(reverse("dashboard:budget_plans"), SPLIT)

        plan = Plan.objects.get()
        assert response.status_code == 302 and f"budget_made={plan.pk}" in response["Location"]
        card = admin_client.get(response["Location"])
        assert f'href="/plans/{plan.pk}/"'.encode() in card.content
        assert plan.source == "fleet budget 20 GB of flash" and plan.created_by.username == "ada"

    def test_it_says_what_each_eviction_costs_and_which_budget_it_remembers(self, admin_client, collected):
        before = admin_client.get(reverse("dashboard:fleet"), SPLIT_SMALL)

        # 2 GB is less than the demo holds on flash: evictions, with their cost and what takes their room.
        assert b"No budget of flash is remembered yet" in before.content
        evictions = before.context["budget_evictions"]
        assert evictions and b'id="budget-evictions"' in before.content
        assert f'data-segment="{evictions[0].segment_id}"'.encode() in before.content
        assert before.context["budget_explained"]["margin"] == 0.25

        made = admin_client.post(reverse("dashboard:budget_plans"), SPLIT_SMALL)
        after = admin_client.get(made["Location"])

        assert b"Remembers the budget of" in after.content and b"by ada; its plans: plan" in after.content
        assert after.context["budget"].previous is not None
