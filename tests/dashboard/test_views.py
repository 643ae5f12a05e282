"""Dashboard views through Django's test client: login, roles, CSV, query counts."""

from __future__ import annotations

import io
from decimal import Decimal

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from apps.snapshots.models import CollectionRun, Segment
from apps.tiering.models import Recommendation, Tier
from tests.dashboard.factories import build_target

pytestmark = pytest.mark.django_db


def page_urls(target_name: str, segment_id: int, run_id: int, tier_id: int) -> list[str]:
    return [
        "/", f"/targets/{target_name}/", f"/targets/{target_name}/segments/{segment_id}/",
        f"/targets/{target_name}/recommendations/", f"/targets/{target_name}/recommendations/?format=csv",
        "/runs/", f"/runs/{run_id}.json", "/tiers/", f"/tiers/{tier_id}/edit/",
    ]


@pytest.fixture
def big(seed_tiers):
    return build_target(name="big", segments=300)


def any_ids(target):
    return (Segment.objects.filter(target=target).first().id, CollectionRun.objects.filter(target=target).first().id,
            Tier.objects.first().id)


class LoginTests:
    def test_it_redirects_anonymous_users_to_login_on_every_page(self, client, big):
        for url in page_urls("big", *any_ids(big)):
            response = client.get(url)
            assert response.status_code == 302, url
            assert response["Location"].startswith("/accounts/login/?next="), url

    def test_it_leaves_healthz_open(self, client):
        assert client.get("/healthz").status_code in (200, 503)

    def test_it_renders_every_page_for_an_admin(self, admin_client, big):
        for url in page_urls("big", *any_ids(big)):
            assert admin_client.get(url).status_code == 200, url


class RoleTests:
    def test_it_forbids_viewers_the_admin_posts(self, viewer_client, big):
        _, _, tier_id = any_ids(big)
        runs_before = CollectionRun.objects.count()
        assert viewer_client.post("/targets/big/collect/").status_code == 403
        assert viewer_client.post("/tiers/presets/").status_code == 403
        assert viewer_client.post(f"/tiers/{tier_id}/edit/", {"name": "x"}).status_code == 403
        assert viewer_client.get(f"/tiers/{tier_id}/edit/").status_code == 403
        # Nothing was queued or changed.
        assert CollectionRun.objects.count() == runs_before
        assert not Tier.objects.filter(name="x").exists()

    def test_it_lets_viewers_browse_and_export(self, viewer_client, big):
        seg_id, run_id, _ = any_ids(big)
        for url in ("/", "/targets/big/", f"/targets/big/segments/{seg_id}/", "/targets/big/recommendations/?format=csv",
                    "/runs/", f"/runs/{run_id}.json", "/tiers/"):
            assert viewer_client.get(url).status_code == 200, url
        body = viewer_client.get("/tiers/").content.decode()
        assert "/edit/" not in body and "Install presets" not in body

    def test_it_saves_a_tier_edit_for_admins(self, admin_client, seed_tiers):
        tier = Tier.objects.get(name="flash")
        data = {f: getattr(tier, f) for f in ("name", "tier_set_id", "kind", "device_cost_usd", "device_gb",
                                              "device_iops", "read_latency_ms", "price_source")}
        data["tier_set"] = data.pop("tier_set_id")
        data["device_cost_usd"] = "1999.00"
        data = {k: ("" if v is None else v) for k, v in data.items()}
        response = admin_client.post(f"/tiers/{tier.id}/edit/", data)
        assert response.status_code == 302
        tier.refresh_from_db()
        assert tier.device_cost_usd == Decimal("1999.00")

    def test_it_refuses_tier_figures_the_cost_model_cannot_price(self, admin_client, seed_tiers):
        tier = Tier.objects.get(name="flash")
        data = {"name": "flash", "tier_set": tier.tier_set, "kind": "device", "billing": "one_off",
                "device_cost_usd": "100", "device_gb": "", "device_iops": "1000", "read_latency_ms": "1"}
        response = admin_client.post(f"/tiers/{tier.id}/edit/", data)
        assert response.status_code == 200
        assert "cannot be priced" in response.content.decode()
        tier.refresh_from_db()
        assert tier.device_gb == 80

    def test_it_installs_presets_for_admins(self, admin_client, db):
        assert Tier.objects.count() == 0
        assert admin_client.post("/tiers/presets/").status_code == 302
        assert Tier.objects.filter(tier_set="seed-2009").count() == 3

    def test_it_enqueues_a_collection_for_admins(self, admin_client, big, django_capture_on_commit_callbacks):
        with django_capture_on_commit_callbacks(execute=False) as callbacks:
            response = admin_client.post("/targets/big/collect/", HTTP_ACCEPT="application/json")
        assert response.status_code == 202
        run = CollectionRun.objects.get(pk=response.json()["id"])
        assert (run.status, run.trigger) == ("queued", "manual")
        assert f'data-run-id="{run.id}"' in response.json()["row_html"]
        assert len(callbacks) == 1  # the task is sent after commit

    def test_it_reports_run_progress_as_json(self, viewer_client, big):
        run = CollectionRun.objects.filter(target=big).first()
        body = viewer_client.get(f"/runs/{run.id}.json").json()
        assert body["status"] == "succeeded" and body["done"] is True and body["duration"] == "5.0 s"


class CsvTests:
    def test_it_downloads_exactly_the_rows_of_manage_py_recommend(self, viewer_client, big):
        response = viewer_client.get("/targets/big/recommendations/?format=csv")
        out = io.StringIO()
        call_command("recommend", "big", "--format", "csv", stdout=out)
        assert response["Content-Disposition"] == 'attachment; filename="tierscope-big-recommendations.csv"'
        assert response.streaming and b"".join(response.streaming_content).decode("utf-8") == out.getvalue()

    def test_it_applies_the_filters_to_the_csv(self, viewer_client, big):
        from apps.dashboard.recommendations.selectors import RecommendationFilter, recommendation_filtered
        from apps.tiering.recommendations.export import export_csv, export_rows

        response = viewer_client.get("/targets/big/recommendations/?format=csv&owner=OWN1&action=move&min_intensity=1")
        expected = recommendation_filtered(
            target_id=big.id, filters=RecommendationFilter(owner="OWN1", action="move", min_intensity=1.0)
        )
        assert 0 < expected.count() < 300
        assert b"".join(response.streaming_content).decode("utf-8") == export_csv(export_rows(expected, big))

    def test_it_ignores_unknown_filter_values(self, viewer_client, big):
        response = viewer_client.get("/targets/big/recommendations/?owner=NOPE&min_intensity=abc&sort=bogus&page=99")
        assert response.status_code == 200
        assert response.context["totals"]["count"] == 300


class TableTests:
    def test_it_filters_sorts_and_pages_the_segments_table(self, viewer_client, big):
        first = viewer_client.get("/targets/big/?object_type=TABLE&sort=-iops&per_page=25").context["page"]
        response = viewer_client.get(f"/targets/big/?object_type=TABLE&sort=-iops&per_page=25&after={first.next_cursor}")
        page = response.context["page"]
        assert response.context["table_totals"]["count"] == 150 and page.has_previous and page.has_next
        iops = [rec.iops for rec in page]
        assert iops == sorted(iops, reverse=True) and len(iops) == 25
        top = Recommendation.objects.current(target_id=big.id).filter(segment__object_type="TABLE").order_by("-iops")[25]
        assert iops[0] == top.iops

    def test_it_shows_size_unknown(self, viewer_client, big):
        body = viewer_client.get("/targets/big/recommendations/?sort=name&per_page=200").content.decode()
        assert "size unknown" in body

    def test_it_totals_the_filtered_rows(self, viewer_client, big):
        response = viewer_client.get("/targets/big/recommendations/?tablespace=TS1")
        totals = response.context["totals"]
        assert totals["count"] == 75
        assert totals["savings"] == Decimal("37.50") and totals["now"] == Decimal("150.00")


class QueryCountTests:
    """Pages read rollups with a fixed number of queries, whatever the number of segments."""

    def count(self, client, url: str) -> int:
        with CaptureQueriesContext(connection) as ctx:
            assert client.get(url).status_code == 200
        return len(ctx.captured_queries)

    def test_it_uses_the_same_number_of_queries_for_60_and_300_segments(self, admin_client, seed_tiers):
        # Both more than a table page (50): a page that runs out of rows with a value reads those without one
        # too (apps.dashboard.recommendations.keyset), one query more whatever the number of segments.
        small = build_target(name="small", segments=60)
        large = build_target(name="large", segments=300)
        for small_url, large_url in zip(page_urls("small", *any_ids(small)), page_urls("large", *any_ids(large))):
            assert self.count(admin_client, small_url) == self.count(admin_client, large_url), large_url

    def test_it_keeps_each_page_under_its_query_budget(self, admin_client, big, django_assert_max_num_queries):
        seg_id, run_id, tier_id = any_ids(big)
        # The run's figures, as recommendation_store computes them when it stores a run (the factory writes the
        # rows directly): the pages read them back in one query.
        from apps.dashboard.recommendations.run_figures import run_figures_store
        from apps.tiering.models import RecommendationRun

        run_figures_store(RecommendationRun.objects.get(target=big, state=RecommendationRun.State.CURRENT))
        # The CSV reads the tiers and runs its rows share once each, rather than joining them to every row.
        # The target pages' head: the current recommendations' run, the window it covers, the latest refresh.
        # The target page's room per tablespace: the latest room (one query; with some, the moves and the map too).
        # Its storage map: the hand map, the locations, the files, the disk groups (the room's effective tiers read
        # them too), the tiers.
        # The segment page's before and after: its moves, and (it has none) whether a compare-period report was
        # imported (two queries). Its DDL's destination tablespace: the effective tiers (apps.snapshots.storage_map:
        # the hand map, the locations, their files, the disk groups: four queries). Its SQL card: the segment's
        # statements (one query; a second for the time ASH covered when there are ASH rows).
        # The three pages kept once rendered read their state first (one query, apps.dashboard.page_cache); the
        # target page reads its storage map once for the room table and the map card.
        budgets = {"/": 8, "/targets/big/": 24, f"/targets/big/segments/{seg_id}/": 15,
                   "/targets/big/recommendations/": 15, "/targets/big/recommendations/?format=csv": 12,
                   "/runs/": 6, "/tiers/": 6}
        for url, budget in budgets.items():
            with django_assert_max_num_queries(budget):
                admin_client.get(url)


@pytest.mark.django_db
class NeverCollectedTests:
    def test_every_page_renders_for_a_target_that_was_never_collected(self, viewer_client, seed_tiers):
        from apps.targets.models import Target

        Target.objects.create(name="fresh", mode=Target.Mode.DEMO)

        for url in ("/", "/targets/fresh/", "/targets/fresh/recommendations/", "/runs/", "/tiers/"):
            response = viewer_client.get(url)
            assert response.status_code == 200, url
        assert "never" in viewer_client.get("/").content.decode()
