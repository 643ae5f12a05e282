"""The segment tables page by keyset: every sort, both directions, walked forwards and backwards, gives each
row once in the order the sort names (NULLs last), and a bad page link is ignored with a note."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.db import connection

from apps.dashboard.recommendations import keyset, selectors
from apps.dashboard.recommendations.keyset import BadCursor, keyset_page
from apps.tiering.models import Recommendation
from tests.dashboard.factories import build_target

pytestmark = pytest.mark.django_db


@pytest.fixture
def varied(seed_tiers):
    target = build_target(name="varied", segments=40)
    for rec in Recommendation.objects.current(target_id=target.id).select_related("segment"):
        i = int(rec.segment.object_name[3:])
        # Ties (i % 3), NULLs (every 5th), and no recommended tier for some.
        savings = None if i % 5 == 0 else Decimal(i % 3)
        Recommendation.objects.filter(run_id=rec.run_id, segment_id=rec.segment_id).update(
            savings_usd=savings, cost_now_usd=None if i % 7 == 0 else Decimal(i % 4),
            recommended_tier=None if i % 6 == 0 else rec.recommended_tier)
    return target


def expected_order(rows: list[Recommendation], sort: str) -> list[int]:
    key = sort.lstrip("-")
    descending = sort.startswith("-")
    columns, _ = (keyset.PARTS[key][0][1][:-1], None)

    def value(rec: Recommendation, path: str):
        for part in path.split("__"):
            rec = getattr(rec, part) if rec is not None else None
        return rec

    with_value = [r for r in rows if value(r, columns[0]) is not None]
    without = [r for r in rows if value(r, columns[0]) is None]
    with_value.sort(key=lambda r: (*(value(r, c) for c in columns), r.segment_id), reverse=descending)
    without.sort(key=lambda r: r.segment_id, reverse=descending)
    return [r.segment_id for r in with_value + without]


def walk(qs, sort: str, size: int, *, backwards: bool = False) -> list[int]:
    seen: list[int] = []
    page = keyset_page(qs, sort=sort, size=size, before="" if backwards else None)
    for _ in range(100):
        ids = [r.segment_id for r in page]
        # Backwards, the first page is shown full: it may repeat rows of the page after it.
        seen = [i for i in ids if i not in seen] + seen if backwards else seen + ids
        more = page.has_previous if backwards else page.has_next
        if not more:
            return seen
        page = keyset_page(qs, sort=sort, size=size, before=page.previous_cursor) if backwards \
            else keyset_page(qs, sort=sort, size=size, after=page.next_cursor)
    raise AssertionError("paging did not end")


@pytest.mark.parametrize("sort", [s for k in keyset.PARTS for s in (k, f"-{k}")])
def test_walking_every_page_gives_each_row_once_in_the_sort_order(varied, sort):
    qs = selectors.recommendation_filtered(target_id=varied.id, filters=selectors.RecommendationFilter())
    expected = expected_order(list(qs), sort)
    assert walk(qs, sort, 7) == expected
    assert walk(qs, sort, 7, backwards=True) == expected


def test_a_page_link_of_another_order_or_edited_is_refused(varied):
    qs = selectors.recommendation_filtered(target_id=varied.id, filters=selectors.RecommendationFilter())
    cursor = keyset_page(qs, sort="-savings", size=5).next_cursor
    with pytest.raises(BadCursor):
        keyset_page(qs, sort="iops", size=5, after=cursor)
    with pytest.raises(BadCursor):
        keyset_page(qs, sort="-savings", size=5, after=cursor[:-2] + "xx")


def test_the_page_ignores_a_bad_link_with_a_note(viewer_client, varied):
    response = viewer_client.get("/targets/varied/recommendations/?after=not-a-cursor")
    assert response.status_code == 200
    assert "Page link ignored" in response.content.decode()
    assert not response.context["page"].has_previous and len(response.context["page"]) == 40


def test_the_next_link_carries_a_cursor(viewer_client, varied):
    body = viewer_client.get("/targets/varied/recommendations/?per_page=25").content.decode()
    assert "after=" in body and 'rel="next"' in body and "?page=" not in body and "&amp;page=" not in body


def test_the_page_query_reads_the_sort_index(varied):
    """The first page of the default sort is read from reco_savings_key_idx (the planner told not to scan)."""
    qs = selectors.recommendation_filtered(target_id=varied.id, filters=selectors.RecommendationFilter())
    from django.db.models import F

    page_qs = qs.filter(savings_usd__isnull=False).order_by(F("savings_usd").desc(), F("segment_id").desc())[:51]
    sql, params = page_qs.query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute("SET LOCAL enable_sort = off")
        cursor.execute("EXPLAIN " + sql, params)
        plan = "\n".join(row[0] for row in cursor.fetchall())
    assert "reco_savings_key_idx" in plan, plan

