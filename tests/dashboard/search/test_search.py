"""The name search: /search/?q= finds segments and targets across the fleet by part of their name, from the
trigram index, and the recommendations filter narrows the table by name."""

from __future__ import annotations

import pytest
from django.db import connection

from apps.dashboard.search.selectors import SEARCH_LIMIT, like_pattern, search_segments
from apps.snapshots.models import Segment
from tests.dashboard.factories import build_target

pytestmark = pytest.mark.django_db


@pytest.fixture
def fleet(seed_tiers):
    return build_target(name="alpha", segments=30), build_target(name="beta", segments=30)


def test_it_finds_segments_of_every_target_by_part_of_the_name_any_case(viewer_client, fleet):
    response = viewer_client.get("/search/?q=own1.obj1")
    hits = response.context["segments"]
    assert {h.target for h in hits} == {"alpha", "beta"}
    assert all("OWN1.OBJ1" in h.label for h in hits)
    body = response.content.decode()
    segment = Segment.objects.get(target__name="alpha", owner="OWN1", object_name="OBJ1")
    assert f'href="/targets/alpha/segments/{segment.id}/"' in body


def test_names_starting_with_the_text_come_first():
    from django.utils import timezone

    from apps.targets.models import Target

    now = timezone.now()
    target = Target.objects.create(name="t", mode=Target.Mode.DEMO, capabilities={})
    for owner, name in (("APP", "X_SALES"), ("SALES", "ORDERS"), ("HR", "SALESMEN")):
        Segment.objects.create(target=target, owner=owner, object_name=name, object_type="TABLE",
                               first_seen_at=now, last_seen_at=now)
    assert search_segments("sales")[0].label.startswith("SALES.ORDERS")


def test_it_bounds_the_results(fleet):
    assert len(search_segments("OWN", limit=SEARCH_LIMIT)) == SEARCH_LIMIT


def test_like_wildcards_are_literal(fleet):
    assert like_pattern("a_b%") == "%A\\_B\\%%"
    assert search_segments("OWN_") == []


def test_it_finds_targets_and_asks_for_two_characters(viewer_client, fleet):
    assert [t.name for t in viewer_client.get("/search/?q=alp").context["targets"]] == ["alpha"]
    response = viewer_client.get("/search/?q=a")
    assert response.status_code == 200 and "at least 2 characters" in response.content.decode()


def test_the_navbar_has_the_search_box(viewer_client, fleet):
    assert 'action="/search/"' in viewer_client.get("/").content.decode()


def test_the_recommendations_filter_narrows_by_name(viewer_client, fleet):
    response = viewer_client.get("/targets/alpha/recommendations/?name=obj2")
    names = {r.segment.object_name for r in response.context["page"]}
    assert names == {"OBJ2", *(f"OBJ2{i}" for i in range(10))}
    assert response.context["totals"]["count"] == 11


def test_the_search_reads_the_trigram_index(fleet):
    from psycopg import sql

    from apps.dashboard.sql import segment_name

    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute(sql.SQL("EXPLAIN SELECT id FROM {} s WHERE {} LIKE %s").format(
            sql.Identifier(Segment._meta.db_table), segment_name("s")), [like_pattern("obj1")])
        plan = "\n".join(row[0] for row in cursor.fetchall())
    assert "segment_name_trgm_idx" in plan, plan
