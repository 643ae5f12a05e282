"""Recompute on the target page: a changed tablespace map or tier price reaches a target's recommendations
without a new collection or import (a report target has neither), through the refresh machinery."""

from __future__ import annotations

import pytest

from apps.core.models import AuditLogEntry
from apps.targets.models import TablespaceTier, Target
from apps.tiering.models import Recommendation, Refresh, Tier
from tests.base import rows_for_module
from tests.dashboard.report_target import ppd_imported_id

pytestmark = pytest.mark.django_db

TABLESPACE = "EPS_TDS_TBLSPC"


ppd_id = rows_for_module(ppd_imported_id)


@pytest.fixture
def ppd(ppd_id, db):
    return Target.objects.get(pk=ppd_id)


def current_tiers(target, tablespace: str = TABLESPACE) -> set[str | None]:
    rows = Recommendation.objects.current(target_id=target.id).filter(segment__tablespace_name=tablespace)
    return {rec.current_tier.name if rec.current_tier else None for rec in rows.select_related("current_tier")}


def map_tablespace(target, tier_name: str) -> Tier:
    tier = Tier.objects.get(tier_set=target.tier_set, name=tier_name)
    TablespaceTier.objects.update_or_create(target=target, tablespace_name=TABLESPACE, defaults={"tier": tier})
    return tier


class RecomputeTests:
    def test_a_changed_tablespace_map_reaches_a_report_target_through_recompute(
        self, admin_client, ppd, django_capture_on_commit_callbacks
    ):
        assert current_tiers(ppd) == {None}  # unmapped
        map_tablespace(ppd, "flash")
        assert current_tiers(ppd) == {None}  # no collection or import will come to apply it

        with django_capture_on_commit_callbacks(execute=True):
            response = admin_client.post("/targets/ppd/recompute/")

        assert response.status_code == 302 and response["Location"] == "/targets/ppd/"
        assert current_tiers(ppd) == {"flash"}
        refresh = Refresh.objects.filter(target=ppd).order_by("-queued_at", "-id").first()
        assert refresh.status == Refresh.Status.SUCCEEDED and refresh.after_run is None
        entry = AuditLogEntry.objects.filter(additional_data__action="recompute").get()
        assert entry.actor.username == "ada" and entry.target_name == "ppd"
        assert f"refresh {refresh.id}" in entry.additional_data["outcome"]
        page = admin_client.get(response["Location"]).content.decode()
        assert f"Recompute of ppd queued (refresh {refresh.id})" in page and 'data-status="succeeded"' in page

    def test_a_tier_price_change_reaches_the_costs_through_recompute(
        self, admin_client, ppd, django_capture_on_commit_callbacks
    ):
        from apps.snapshots.models import Segment

        # Sized segments are priced: give the tablespace's segments a size and map them.
        Segment.objects.filter(target=ppd, tablespace_name=TABLESPACE).update(size_bytes=100 * 1024**3)
        tier = map_tablespace(ppd, "fast disk")
        with django_capture_on_commit_callbacks(execute=True):
            admin_client.post("/targets/ppd/recompute/")
        rows = Recommendation.objects.current(target_id=ppd.id).filter(segment__tablespace_name=TABLESPACE)
        before = sorted(rows.values_list("cost_now_usd", flat=True))

        tier.device_cost_usd *= 2
        tier.save()
        with django_capture_on_commit_callbacks(execute=True):
            admin_client.post("/targets/ppd/recompute/")

        after = sorted(Recommendation.objects.current(target_id=ppd.id).filter(segment__tablespace_name=TABLESPACE)
                       .values_list("cost_now_usd", flat=True))
        assert all(a is not None and b is not None for a, b in zip(before, after))
        assert [a / b for a, b in zip(after, before)] == pytest.approx([2] * len(before), rel=0.01)

    def test_the_page_shows_the_refresh_while_it_is_queued(self, admin_client, ppd, django_capture_on_commit_callbacks):
        # Not sent (the callbacks are not run): queued, as until a worker takes it.
        with django_capture_on_commit_callbacks(execute=False):
            response = admin_client.post("/targets/ppd/recompute/", follow=True)

        page = response.content.decode()
        assert "Recompute of ppd queued" in page
        assert 'id="refresh-state" data-status="queued"' in page and "recomputing…" in page
        state = admin_client.get("/targets/ppd/refresh.json").json()
        assert state["status"] == "queued" and state["done"] is False

    def test_a_second_recompute_while_one_is_queued_is_the_same_refresh(
        self, admin_client, ppd, django_capture_on_commit_callbacks
    ):
        with django_capture_on_commit_callbacks(execute=False):
            admin_client.post("/targets/ppd/recompute/")
            admin_client.post("/targets/ppd/recompute/")
        assert Refresh.objects.filter(target=ppd, status=Refresh.Status.QUEUED).count() == 1

    def test_it_works_for_a_live_target_too(self, admin_client, demo_target, collect, django_capture_on_commit_callbacks):
        collect(demo_target)
        refreshes = Refresh.objects.filter(target=demo_target).count()

        with django_capture_on_commit_callbacks(execute=True):
            assert admin_client.post("/targets/demo/recompute/").status_code == 302

        assert Refresh.objects.filter(target=demo_target).count() == refreshes + 1
        assert "Recompute" in admin_client.get("/targets/demo/").content.decode()


class TierEditPointsToRecomputeTests:
    def test_the_tier_edit_page_and_its_message_say_a_price_applies_at_once_only_with_recompute(self, admin_client, ppd):
        tier = Tier.objects.get(tier_set=ppd.tier_set, name="flash")

        page = admin_client.get(f"/tiers/{tier.id}/edit/").content.decode()

        assert "(at once with Recompute on a target's page)" in page
        form = {field: value for field, value in admin_client.get(f"/tiers/{tier.id}/edit/").context["form"].initial.items()
                if value is not None}
        saved = admin_client.post(f"/tiers/{tier.id}/edit/", form, follow=True).content.decode()
        assert "or now with Recompute on the target" in saved


class RecomputeAccessTests:
    def test_viewers_get_403_and_nothing_is_queued(self, viewer_client, ppd):
        refreshes = Refresh.objects.count()
        assert viewer_client.post("/targets/ppd/recompute/").status_code == 403
        assert Refresh.objects.count() == refreshes

    def test_it_is_post_only(self, admin_client, ppd):
        assert admin_client.get("/targets/ppd/recompute/").status_code == 405

    def test_the_button_is_shown_to_admins_only_on_both_target_pages(self, admin_user, viewer, ppd):
        from django.test import Client

        admin, vera = Client(), Client()
        admin.force_login(admin_user)
        vera.force_login(viewer)
        for url in ("/targets/ppd/", "/targets/ppd/recommendations/"):
            assert 'id="recompute"' in admin.get(url).content.decode(), url
            assert 'id="recompute"' not in vera.get(url).content.decode(), url

    def test_the_csrf_token_is_required(self, admin_user, ppd):
        from django.test import Client

        client = Client(enforce_csrf_checks=True)
        client.force_login(admin_user)
        assert client.post("/targets/ppd/recompute/").status_code == 403
