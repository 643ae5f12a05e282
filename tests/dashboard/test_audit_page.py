"""/audit/: the audit log for admins, newest first, filtered by target and actor, paginated."""

from __future__ import annotations

import pytest
from auditlog.context import set_actor

from apps.core.audit import audit_event_record
from apps.core.models import AuditLogEntry
from apps.dashboard.views import AUDIT_PAGE_SIZE
from apps.targets.models import Target
from apps.tiering.models import Tier, TierSet

pytestmark = pytest.mark.django_db


class AuditPagePermissionTests:
    def test_it_sends_anonymous_users_to_login(self, client):
        response = client.get("/audit/")
        assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")

    def test_it_forbids_viewers(self, viewer_client):
        assert viewer_client.get("/audit/").status_code == 403

    def test_it_links_the_page_in_the_nav_for_admins_only(self, admin_client, client, viewer):
        assert 'href="/audit/"' in admin_client.get("/runs/").content.decode()
        client.force_login(viewer)
        assert 'href="/audit/"' not in client.get("/runs/").content.decode()


class AuditPageTests:
    def test_it_shows_a_tier_price_change_with_old_and_new_value_and_author(self, admin_client, admin_user):
        tier = Tier.objects.create(name="flash", device_cost_usd="100.00", device_gb=1000, device_iops=10000,
                                   tier_set=TierSet.objects.create(name="custom"))
        with set_actor(admin_user):
            tier.device_cost_usd = "250.00"
            tier.save()

        body = admin_client.get("/audit/").content.decode()

        assert "<code>device_cost_usd</code> 100.00 → 250.00" in body
        assert "ada" in body

    def test_it_shows_actions_with_target_file_and_outcome(self, admin_client, admin_user):
        target = Target.objects.create(name="sales", mode=Target.Mode.REPORT)
        audit_event_record(actor=admin_user, action="import report", target=target, detail="awrrpt_1.html",
                           outcome="imported 1 snapshot(s)")

        body = admin_client.get("/audit/").content.decode()

        assert "import report" in body and "awrrpt_1.html" in body and "imported 1 snapshot(s)" in body

    def test_it_filters_by_target_and_by_actor(self, admin_client, admin_user):
        sales = Target.objects.create(name="sales", mode=Target.Mode.REPORT)
        hr = Target.objects.create(name="hr", mode=Target.Mode.REPORT)
        audit_event_record(actor=admin_user, action="collect now", target=sales, outcome="queued as run 1")
        audit_event_record(actor=None, action="add_target", target=hr, outcome="added (report)")

        by_target = admin_client.get("/audit/?target=hr").context["page"]
        by_actor = admin_client.get("/audit/?actor=ada").context["page"]

        assert {e.target_name for e in by_target} == {"hr"}
        assert [e.additional_data["action"] for e in by_actor] == ["collect now"]

    def test_it_lists_newest_first_on_pages(self, admin_client, admin_user):
        target = Target.objects.create(name="sales", mode=Target.Mode.REPORT)
        AuditLogEntry.objects.all().delete()
        for number in range(AUDIT_PAGE_SIZE + 3):
            audit_event_record(actor=admin_user, action="collect now", target=target, outcome=f"run {number}")

        first = admin_client.get("/audit/")
        second = admin_client.get("/audit/?page=2")

        assert first.context["page"][0].additional_data["outcome"] == f"run {AUDIT_PAGE_SIZE + 2}"
        assert len(first.context["page"]) == AUDIT_PAGE_SIZE
        assert [e.additional_data["outcome"] for e in second.context["page"]] == ["run 2", "run 1", "run 0"]
        assert 'rel="next"' in first.content.decode() and "page 1 of 2" in first.content.decode()

    def test_it_keeps_its_query_count_flat(self, admin_client, admin_user, django_assert_max_num_queries):
        target = Target.objects.create(name="sales", mode=Target.Mode.REPORT)
        for number in range(AUDIT_PAGE_SIZE):
            audit_event_record(actor=admin_user, action="collect now", target=target, outcome=f"run {number}")

        with django_assert_max_num_queries(12):
            assert admin_client.get("/audit/").status_code == 200


class AuditAdminTests:
    def test_it_lists_entries_with_who_and_target_in_the_admin(self, admin_client, admin_user):
        target = Target.objects.create(name="sales", mode=Target.Mode.REPORT)
        entry = audit_event_record(actor=None, action="add_target", target=target, outcome="added (report)")
        AuditLogEntry.objects.filter(pk=entry.pk).update(actor_name="manage.py add_target (os user ops)")

        listing = admin_client.get("/admin/core/auditlogentry/")
        detail = admin_client.get(f"/admin/core/auditlogentry/{entry.pk}/change/")

        assert listing.status_code == 200 and "manage.py add_target (os user ops)" in listing.content.decode()
        assert detail.status_code == 200 and "added (report)" in detail.content.decode()
