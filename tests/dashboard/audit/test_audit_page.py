"""/audit/: the audit log for admins, newest first, filtered (who, target, what, action, when, name), paged by
keyset; a create or a delete in one line, an update field by field."""

from __future__ import annotations

import pytest
from auditlog.context import set_actor

from apps.core.audit import audit_event_record
from apps.core.models import AuditLogEntry
from apps.dashboard.audit.views import AUDIT_PAGE_SIZE
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

        assert {r.entry.target_name for r in by_target} == {"hr"}
        assert [r.entry.additional_data["action"] for r in by_actor] == ["collect now"]

    def test_it_lists_newest_first_on_pages(self, admin_client, admin_user):
        target = Target.objects.create(name="sales", mode=Target.Mode.REPORT)
        AuditLogEntry.objects.all().delete()
        for number in range(AUDIT_PAGE_SIZE + 3):
            audit_event_record(actor=admin_user, action="collect now", target=target, outcome=f"run {number}")

        first = admin_client.get("/audit/")
        older = first.context["page"].older
        second = admin_client.get("/audit/", {"older": older})
        back = admin_client.get("/audit/", {"newer": second.context["page"].newer})

        assert first.context["page"].rows[0].entry.additional_data["outcome"] == f"run {AUDIT_PAGE_SIZE + 2}"
        assert len(first.context["page"]) == AUDIT_PAGE_SIZE and first.context["page"].newer is None
        assert [r.entry.additional_data["outcome"] for r in second.context["page"]] == ["run 2", "run 1", "run 0"]
        assert second.context["page"].older is None
        assert [r.entry.pk for r in back.context["page"]] == [r.entry.pk for r in first.context["page"]]
        assert 'rel="next"' in first.content.decode() and f"{AUDIT_PAGE_SIZE + 3} entries" in first.content.decode()

    def test_it_pages_entries_written_in_the_same_instant_without_losing_or_repeating_one(self, admin_client,
                                                                                        admin_user):
        target = Target.objects.create(name="sales", mode=Target.Mode.REPORT)
        AuditLogEntry.objects.all().delete()
        for number in range(AUDIT_PAGE_SIZE + 5):
            audit_event_record(actor=admin_user, action="collect now", target=target, outcome=f"run {number}")
        AuditLogEntry.objects.update(timestamp=AuditLogEntry.objects.first().timestamp)

        first = admin_client.get("/audit/").context["page"]
        second = admin_client.get("/audit/", {"older": first.older}).context["page"]

        seen = [r.entry.pk for r in first] + [r.entry.pk for r in second]
        assert sorted(seen) == sorted(AuditLogEntry.objects.values_list("pk", flat=True))

    def test_an_edited_page_link_shows_the_newest_entries_with_a_note(self, admin_client, admin_user):
        target = Target.objects.create(name="sales", mode=Target.Mode.REPORT)
        audit_event_record(actor=admin_user, action="collect now", target=target, outcome="run 1")

        response = admin_client.get("/audit/", {"older": "forged"})

        assert response.status_code == 200 and len(response.context["page"]) >= 1
        assert "Page link ignored (the page link is not one this page made)" in response.content.decode()

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


class AuditEntryLinesTests:
    def test_a_target_created_on_the_targets_page_is_one_line(self, admin_client, seed_tiers):
        admin_client.post("/manage/targets/add/", {
            "name": "PROD1", "mode": "nopack", "dsn": "dbhost1:1521/PROD1", "username": "TIERSCOPE",
            "password": "s3cret-pw", "interval_minutes": 60, "enabled": "on", "tier_set": "seed-2009", "demo_seed": 42})

        row = admin_client.get("/audit/", {"action": "create"}).context["page"].rows[0]
        body = admin_client.get("/audit/").content.decode()

        assert row.line == ("created target PROD1 (mode nopack, dsn dbhost1:1521/PROD1, username TIERSCOPE, "
                            "password (set), tier set seed-2009)")
        assert "None →" not in body and "s3cret" not in body

    def test_a_delete_is_one_line_and_an_update_keeps_old_and_new(self, admin_client, admin_user):
        with set_actor(admin_user):
            target = Target.objects.create(name="sales", mode=Target.Mode.REPORT)
            target.interval_minutes = 30
            target.save()
            target.delete()

        rows = admin_client.get("/audit/", {"target": "sales"}).context["page"].rows

        assert [row.line for row in rows] == ["deleted target sales", "", "created target sales (mode report, "
                                                                          "tier set seed-2009)"]
        assert rows[1].changes == [("interval_minutes", "60", "30")]


class AuditFilterTests:
    @pytest.fixture
    def log(self, admin_user, viewer):
        """A target created by ada on the 1st, a tier changed by vera on the 3rd, a collect now on the 5th."""
        import datetime as dt

        AuditLogEntry.objects.all().delete()  # the users' own creation
        with set_actor(admin_user):
            prod = Target.objects.create(name="PROD1", mode=Target.Mode.REPORT)
        with set_actor(viewer):
            tier = Tier.objects.create(name="flash", device_cost_usd="100.00", device_gb=1000, device_iops=10000,
                                       tier_set=TierSet.objects.create(name="custom"))
            tier.device_cost_usd = "250.00"
            tier.save()
        audit_event_record(actor=admin_user, action="collect now", target=prod, outcome="queued as run 7")
        days = {"PROD1": 1, "flash": 3}
        for entry in AuditLogEntry.objects.all():
            day = 5 if entry.action == AuditLogEntry.Action.ACCESS else days[entry.object_repr]
            AuditLogEntry.objects.filter(pk=entry.pk).update(
                timestamp=dt.datetime(2026, 11, day, 12, 0, tzinfo=dt.timezone.utc))

    def shown(self, client, **params) -> list[str]:
        rows = client.get("/audit/", params).context["page"].rows
        return [f"{r.entry.get_action_display()} {r.entry.object_repr}" for r in rows]

    def test_it_filters_by_who(self, admin_client, log):
        assert self.shown(admin_client, actor="vera") == ["update flash", "create flash"]

    def test_it_filters_by_kind_of_object(self, admin_client, log):
        from django.contrib.contenttypes.models import ContentType

        tiers = ContentType.objects.get_for_model(Tier).pk
        assert self.shown(admin_client, type=tiers) == ["update flash", "create flash"]

    def test_it_filters_by_change_or_by_action_name(self, admin_client, log):
        assert self.shown(admin_client, action="update") == ["update flash"]
        assert self.shown(admin_client, action="collect now") == ["access PROD1"]

    def test_it_filters_by_days_both_included(self, admin_client, log):
        assert self.shown(admin_client, since="2026-11-03", until="2026-11-03") == ["update flash", "create flash"]
        assert self.shown(admin_client, until="2026-11-01") == ["create PROD1"]

    def test_it_filters_by_part_of_the_objects_name_in_any_case(self, admin_client, log):
        assert self.shown(admin_client, name="prod") == ["access PROD1", "create PROD1"]

    def test_it_combines_filters(self, admin_client, log):
        assert self.shown(admin_client, actor="ada", action="create", name="PROD") == ["create PROD1"]

    def test_it_offers_the_kinds_actions_and_people_in_the_log(self, admin_client, log):
        form = admin_client.get("/audit/").context["form"]
        actions = dict(form.fields["action"].choices)
        assert dict(actions["actions"]) == {"collect now": "collect now"}
        assert dict(actions["model changes"]) == {"create": "created", "update": "changed", "delete": "deleted"}
        assert {label for _, label in form.fields["type"].choices} >= {"target", "tier"}
        assert [name for name, _ in form.fields["actor"].choices] == ["", "ada", "vera"]

    def test_a_bad_date_is_named_and_left_out_while_the_other_filters_apply(self, admin_client, log):
        response = admin_client.get("/audit/", {"since": "2026-13-45", "actor": "ada"})

        assert "From: Enter a valid date. (filter ignored)" in response.content.decode()
        assert [r.entry.object_repr for r in response.context["page"]] == ["PROD1", "PROD1"]

    def test_a_range_that_ends_before_it_starts_is_named(self, admin_client, log):
        response = admin_client.get("/audit/", {"since": "2026-11-05", "until": "2026-11-01"})

        assert "To: To (2026-11-01) is before From (2026-11-05). (filter ignored)" in response.content.decode()

    def test_it_says_nothing_matched_a_filter(self, admin_client, log):
        body = admin_client.get("/audit/", {"name": "no-such-name"}).content.decode()
        assert "Nothing recorded for this filter." in body and "Matching: 0 entries" in body


def test_the_examples_of_the_entry_lines_hold():
    import doctest

    from apps.dashboard.audit import rows as audit_rows

    assert doctest.testmod(audit_rows).failed == 0


class AuditKindFilterTests:
    def test_actions_about_no_object_are_a_kind_of_their_own(self, admin_client, admin_user):
        from django.contrib.contenttypes.models import ContentType

        audit_event_record(actor=admin_user, action="tier presets", outcome="none missing")
        own = ContentType.objects.get_for_model(AuditLogEntry).pk

        form = admin_client.get("/audit/").context["form"]
        rows = admin_client.get("/audit/", {"type": own}).context["page"].rows

        assert dict(form.fields["type"].choices)[own] == "actions on no object"
        assert [r.entry.additional_data["action"] for r in rows] == ["tier presets"]
