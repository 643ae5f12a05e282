"""The fleet budget through the API: what the fleet page's card reads, bad input named."""

from __future__ import annotations

import pytest

from apps.tiering.budget.services import fleet_budget

pytestmark = pytest.mark.django_db


def test_a_budget_splits_as_the_fleet_pages_card(viewer_api, big):
    body = viewer_api.get("/api/v1/budget/?budget_tier=flash&budget_amount=2&budget_unit=gb").json()

    split = fleet_budget(tier_name="flash", gb=2).split
    assert body["budget"] == "2 GB" and body["tier"] == "flash"
    assert [t["name"] for t in body["targets"]] == ["big"]
    assert body["targets"][0]["gb_after"] == pytest.approx(split.targets[0].gb_after)
    assert body["fleet"]["saving_usd_per_month"] == pytest.approx(split.total("saving_usd_per_month"))


@pytest.mark.parametrize(("query", "named"), [("budget_tier=gold&budget_amount=1", "budget_tier"),
                                              ("budget_tier=flash&budget_amount=-1", "budget_amount"),
                                              ("budget_tier=flash&budget_amount=1&budget_unit=tb", "budget_unit")])
def test_a_bad_budget_is_a_400_naming_the_parameter(viewer_api, big, query, named):
    response = viewer_api.get(f"/api/v1/budget/?{query}")

    assert response.status_code == 400
    assert named in response.json()["errors"]
