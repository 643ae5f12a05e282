"""Targets, runs, segments, a segment's history and tier sets through the API."""

from __future__ import annotations

import pytest

from apps.snapshots.models import CollectionRun

pytestmark = pytest.mark.django_db


def test_a_target_says_its_last_successful_collection_and_state(viewer_api, big):
    CollectionRun.objects.create(target=big, status="failed", trigger="manual", queued_at=big.runs.first().queued_at
                                 .replace(year=2100), error="ORA-12541: no listener")

    body = viewer_api.get("/api/v1/targets/big/").json()

    assert body["state"] == "failed"
    assert body["consecutive_failures"] == 1
    last_ok = CollectionRun.objects.filter(target=big, status="succeeded").order_by("-queued_at").first()
    assert body["last_success_at"].startswith(last_ok.finished_at.strftime("%Y-%m-%dT%H:%M:%S"))
    assert body["segments"] == 30 and body["tier_set"] == "seed-2009"


def test_a_target_never_collected_has_no_last_success(viewer_api, seed_tiers):
    from apps.targets.models import Target

    Target.objects.create(name="fresh", mode="report", tier_set_id="seed-2009")

    row = next(t for t in viewer_api.get("/api/v1/targets/").json()["results"] if t["name"] == "fresh")

    assert (row["state"], row["last_success_at"], row["last_run"]) == ("never", None, None)
    assert row["cost_now_usd_per_month"] is None  # unknown, not $0


def test_runs_filter_by_target_and_outcome(viewer_api, big, seed_tiers):
    from tests.dashboard.factories import build_target

    build_target(name="other", segments=2)
    CollectionRun.objects.create(target=big, status="failed", queued_at=big.runs.first().queued_at)

    failed = viewer_api.get("/api/v1/runs/?target=big&outcome=failed").json()
    big_runs = viewer_api.get("/api/v1/runs/?target=big").json()

    assert [r["status"] for r in failed["results"]] == ["failed"]
    assert big_runs["count"] == 6 and {r["target"] for r in big_runs["results"]} == {"big"}


@pytest.mark.parametrize(("query", "named"), [("outcome=exploded", "outcome"), ("target=nope", "target"),
                                              ("limit=5000", "limit"), ("offset=-1", "offset")])
def test_bad_run_filters_are_a_400_naming_them(viewer_api, big, query, named):
    response = viewer_api.get(f"/api/v1/runs/?{query}")

    assert response.status_code == 400
    assert named in response.json()["errors"]


def test_lists_are_paged_by_100_unless_asked(viewer_api, big):
    body = viewer_api.get("/api/v1/targets/big/segments/?limit=20&offset=20").json()

    assert body["count"] == 30 and len(body["results"]) == 10 and body["next"] is None
    assert len(viewer_api.get("/api/v1/targets/big/segments/").json()["results"]) == 30


def test_a_segments_history_is_what_its_page_charts(viewer_api, big):
    segment = big.segments.get(object_name="OBJ3")

    body = viewer_api.get(f"/api/v1/targets/big/segments/{segment.id}/history/").json()

    assert body["label"] == "OWN0.OBJ3"
    assert [s["read_requests"] for s in body["series"]] == [103] * 6
    assert body["residency"][0]["flash_blocks"] == 30
    assert [r["current"] for r in body["recommendations"]] == [True]


def test_a_segment_of_another_target_is_not_found(viewer_api, big, seed_tiers):
    from tests.dashboard.factories import build_target

    other = build_target(name="other", segments=1).segments.get()

    assert viewer_api.get(f"/api/v1/targets/big/segments/{other.id}/history/").status_code == 404


def test_tier_sets_carry_the_seeds_intensities_and_break_evens(viewer_api, seed_tiers):
    sets = {s["name"]: s for s in viewer_api.get("/api/v1/tier-sets/").json()}

    seed = sets["seed-2009"]
    assert sorted(t["intensity"] for t in seed["tiers"]) == pytest.approx([0.1, 1.0, 375.0])
    assert sorted(b["intensity"] for b in seed["break_evens"]) == pytest.approx([0.8, 15.0])


def test_a_tier_says_where_its_throughput_comes_from_or_that_it_is_unknown(viewer_api, seed_tiers):
    tiers = {t["name"]: t for s in viewer_api.get("/api/v1/tier-sets/").json() for t in s["tiers"]}

    assert tiers["flash"]["throughput_mb_s"] == 100
    assert tiers["flash"]["throughput_source"].startswith("seeds/")
    unknown = [t for t in tiers.values() if t["throughput_mb_s"] is None]
    assert unknown and all(t["throughput_source"] == "" for t in unknown)
