"""The admin's delete confirmation counts what goes with a row in the database instead of loading and listing
every row (Django's own took 21 s for the demo target's 30,000 statistics; a real target's millions never
came back), and still refuses a delete a protected row blocks."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from apps.snapshots.models import Segment, SegmentStat
from apps.targets.models import Target
from apps.tiering.models import RecommendationRun, TierSet

pytestmark = pytest.mark.django_db


@pytest.fixture
def collected(collected_shared):
    return collected_shared  # one collection for the module's tests (tests/conftest.py collected_for_module)


def _rows_read(queries: list[dict], table: str) -> list[str]:
    """The queries that read ``table``'s rows (not a count of them)."""
    return [q["sql"] for q in queries
            if q["sql"].startswith("SELECT") and f'FROM "{table}"' in q["sql"] and "COUNT(" not in q["sql"]]


class CountedDeleteTests:
    def test_a_target_s_confirmation_counts_its_statistics_without_reading_them(self, admin_client, collected):
        stats = SegmentStat.objects.filter(segment__target=collected).count()
        segments = Segment.objects.filter(target=collected).count()

        with CaptureQueriesContext(connection) as queries:
            page = admin_client.get(f"/admin/targets/target/{collected.pk}/delete/")

        assert page.status_code == 200
        body = page.content.decode()
        assert f"Segment stats: {stats}<" in body and f"Segments: {segments}<" in body  # each row once
        assert f"Target: {collected}<" in body
        assert _rows_read(queries.captured_queries, "snapshots_segmentstat") == []
        assert "Yes, I’m sure" in body

    def test_confirming_deletes_the_target_at_once_and_what_goes_with_it_on_a_worker(
            self, admin_client, collected, django_capture_on_commit_callbacks):
        with django_capture_on_commit_callbacks() as purge:
            response = admin_client.post(f"/admin/targets/target/{collected.pk}/delete/", {"post": "yes"})

        assert response.status_code == 302
        assert not Target.objects.filter(pk=collected.pk).exists()
        assert admin_client.get(f"/admin/targets/target/{collected.pk}/change/").status_code == 302  # "not found"
        for send in purge:
            send()  # the worker's purge (tasks run eagerly in tests)
        assert not Target.all_objects.filter(pk=collected.pk).exists()
        assert not SegmentStat.objects.filter(segment__target_id=collected.pk).exists()

    def test_a_recommendation_run_s_confirmation_counts_its_recommendations(self, admin_client, collected):
        run = RecommendationRun.objects.filter(target=collected).latest("pk")

        body = admin_client.get(f"/admin/tiering/recommendationrun/{run.pk}/delete/").content.decode()

        assert f"Recommendations: {run.rows.count()}<" in body

    def test_a_tier_set_a_target_uses_is_refused_naming_the_target(self, admin_client, collected):
        tier_set = TierSet.objects.get(pk=collected.tier_set_id)

        body = admin_client.get(f"/admin/tiering/tierset/{tier_set.pk}/delete/").content.decode()

        assert "would require deleting the following protected related objects" in body
        assert str(collected) in body
        assert TierSet.objects.filter(pk=tier_set.pk).exists()

    def test_the_delete_selected_action_counts_too(self, admin_client, collected):
        with CaptureQueriesContext(connection) as queries:
            body = admin_client.post("/admin/targets/target/", {"action": "delete_selected",
                                                                "_selected_action": [collected.pk]}).content.decode()

        assert f"Target: {collected}<" in body and "Segment stats: " in body
        assert _rows_read(queries.captured_queries, "snapshots_segmentstat") == []
