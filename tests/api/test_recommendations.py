"""A target's recommendations through the API: the recommendations page's filters, its keyset paging and signed
cursors, a subset of columns, and bad input answered 400 with its name."""

from __future__ import annotations

import gc

import pytest

from apps.dashboard.recommendations.keyset import cursor_encode
from apps.dashboard.recommendations.selectors import (
    RecommendationFilter,
    recommendation_filtered,
    recommendation_sorted,
)
from apps.tiering.models import Recommendation

pytestmark = pytest.mark.django_db
URL = "/api/v1/targets/big/recommendations/"


def _all_pages(client, url: str) -> list[dict]:
    rows, pages = [], 0
    while url:
        body = client.get(url).json()
        rows += body["results"]
        url, pages = body["next"], pages + 1
        assert pages < 50
    return rows


def test_pages_of_ten_walk_every_row_once_in_the_pages_order(viewer_api, big):
    rows = _all_pages(viewer_api, f"{URL}?limit=10&sort=-iops")

    expected = recommendation_sorted(recommendation_filtered(target_id=big.id, filters=RecommendationFilter()),
                                     sort="-iops")
    assert [r["segment_id"] for r in rows] == [rec.segment_id for rec in expected]
    assert len(rows) == 30


def test_previous_goes_back_to_the_page_before(viewer_api, big):
    first = viewer_api.get(f"{URL}?limit=7&sort=name").json()
    second = viewer_api.get(first["next"]).json()

    back = viewer_api.get(second["previous"]).json()

    assert back["results"] == first["results"]
    assert first["previous"] is None


def test_the_pages_filters_select_the_same_rows(viewer_api, big):
    body = viewer_api.get(f"{URL}?owner=OWN1&object_type=TABLE&action=move&min_intensity=0.5&limit=1000").json()

    expected = recommendation_filtered(target_id=big.id, filters=RecommendationFilter(
        owner="OWN1", object_type="TABLE", action="move", min_intensity=0.5))
    assert sorted(r["segment_id"] for r in body["results"]) == sorted(rec.segment_id for rec in expected)
    assert body["results"] and all(r["owner"] == "OWN1" and r["action"] == "move" for r in body["results"])


def test_name_contains_matches_part_of_owner_dot_name_in_any_case(viewer_api, big):
    body = viewer_api.get(f"{URL}?name=own2.obj1").json()

    assert {r["object_name"] for r in body["results"]} == {"OBJ11", "OBJ14", "OBJ17"}


def test_fields_answers_only_the_columns_asked(viewer_api, big):
    body = viewer_api.get(f"{URL}?fields=segment_id,label,savings_usd_per_month&limit=3").json()

    assert [set(r) for r in body["results"]] == [{"segment_id", "label", "savings_usd_per_month"}] * 3


def test_money_is_per_month_and_an_unknown_size_stays_null(viewer_api, big):
    rows = viewer_api.get(f"{URL}?limit=1000").json()["results"]

    unsized = next(r for r in rows if r["object_name"] == "OBJ0")
    assert unsized["size_gb"] is None and unsized["intensity"] is None
    # seed-2009 is a purchase set amortised over its months: $2.00 a purchase is less a month.
    assert 0 < rows[0]["cost_now_usd_per_month"] < 2.0


@pytest.mark.parametrize(("query", "named"), [
    ("limit=0", "limit"), ("limit=1001", "limit"), ("limit=ten", "limit"), ("min_intensity=-1", "min_intensity"),
    ("owner=NOBODY", "owner"), ("sort=colour", "sort"), ("fields=segment_id,colour", "fields"),
    ("after=forged", "after"), ("before=forged", "before"), ("after=a&before=b", "before"),
])
def test_bad_input_is_a_400_naming_the_parameter(viewer_api, big, query, named):
    response = viewer_api.get(f"{URL}?{query}")

    assert response.status_code == 400
    assert named in response.json()["errors"]
    assert response.json()["detail"].startswith(f"{named}:")


def test_a_cursor_made_for_another_order_is_refused(viewer_api, big):
    cursor = cursor_encode("-savings", 0, ("0.50", 1))

    response = viewer_api.get(f"{URL}?sort=name&after={cursor}")

    assert response.status_code == 400
    assert "another order" in response.json()["detail"]


def test_an_unknown_target_is_a_json_404(viewer_api, db):
    response = viewer_api.get("/api/v1/targets/nope/recommendations/")

    assert response.status_code == 404
    assert "nope" in response.json()["detail"]


def test_a_pages_rows_are_freed_when_its_response_is_sent_not_left_to_the_garbage_collector(viewer_api, big):
    viewer_api.get(f"{URL}?limit=30")  # everything a first request sets up once
    gc.collect()
    gc.disable()
    try:
        response = viewer_api.get(f"{URL}?limit=30")
        assert response.status_code == 200 and len(response.json()["results"]) == 30
        del response.json  # the test client's own reference cycle (response.json is bound to the response)
        del response
        gc.set_debug(gc.DEBUG_SAVEALL)
        gc.collect()
        left = [o for o in gc.garbage if type(o) is Recommendation  # type(): a lazy object evaluates on isinstance()
                or (type(o) is dict and type(o.get("label")) is str and "cost_now_usd_per_month" in o)]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()
    assert left == []
