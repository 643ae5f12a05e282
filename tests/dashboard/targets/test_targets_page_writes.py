"""/manage/targets/ writes: add and edit with the admin's checks and an encrypted, never echoed password; delete
after a confirmation naming what goes; test connection queued on a worker; each write in the audit log."""

from __future__ import annotations

from unittest import mock

import pytest
from django.contrib.messages import get_messages
from django.utils import timezone

from apps.core.models import AuditLogEntry
from apps.snapshots.models import CollectionRun
from apps.targets.models import Target, TargetCheck
from tests.targets.live_target import live_target_create

pytestmark = pytest.mark.django_db

ADD = "/manage/targets/add/"


def form_data(**overrides) -> dict[str, object]:
    data = {"name": "prod", "mode": "nopack", "dsn": "dbhost1:1521/PROD", "username": "TIERSCOPE",
            "password": "s3cret-pw", "interval_minutes": 60, "enabled": "on", "collect_queue": "",
            "tier_set": "seed-2009", "demo_seed": 42}
    return {**data, **overrides}


@pytest.fixture
def prod(seed_tiers) -> Target:
    return live_target_create("s3cret-pw")


class TargetAddTests:
    def test_it_adds_a_live_target_with_the_password_encrypted(self, admin_client, seed_tiers):
        response = admin_client.post(ADD, form_data())

        assert response.status_code == 302 and response["Location"] == "/manage/targets/"
        target = Target.objects.get(name="prod")
        assert target.mode == "nopack" and target.dsn == "dbhost1:1521/PROD"
        assert "s3cret-pw" not in target.password_encrypted and target.get_password() == "s3cret-pw"

    def test_it_writes_the_create_to_the_audit_log_with_who_and_no_password(self, admin_client, seed_tiers):
        admin_client.post(ADD, form_data())

        entry = AuditLogEntry.objects.get(action=AuditLogEntry.Action.CREATE, object_repr="prod")
        assert entry.actor_name == "ada" and entry.target_name == "prod"
        assert entry.changes_dict["password_encrypted"][1] == "(set)"
        assert "s3cret" not in str(entry.changes)

    @pytest.mark.parametrize(("missing", "message"), [
        ("dsn", "Required for a live Oracle target (nopack mode)."),
        ("username", "Required for a live Oracle target (nopack mode)."),
        ("password", "Required for a live Oracle target."),
    ])
    def test_it_refuses_a_live_target_without_dsn_user_or_password(self, admin_client, seed_tiers, missing, message):
        response = admin_client.post(ADD, form_data(**{missing: ""}))

        assert response.status_code == 400
        assert response.context["form"].errors[missing] == [message]
        assert message in response.content.decode()
        assert not Target.objects.exists()

    def test_it_refuses_a_bad_name_an_interval_under_five_minutes_and_a_taken_name(self, admin_client, prod):
        errors = admin_client.post(ADD, form_data(name="bad name", interval_minutes=1)).context["form"].errors
        taken = admin_client.post(ADD, form_data()).context["form"].errors

        assert errors["name"] == ["letters, digits, _ . - only"]
        assert "interval_minutes" in errors
        assert taken["name"] == ["Target with this Name already exists."]
        assert Target.objects.count() == 1

    def test_it_adds_a_demo_target_without_oracle_fields(self, admin_client, seed_tiers):
        response = admin_client.post(ADD, form_data(name="lab", mode="demo", dsn="", username="", password=""))

        assert response.status_code == 302
        assert Target.objects.get(name="lab").mode == "demo"

    def test_it_renders_the_password_field_empty(self, admin_client, seed_tiers):
        body = admin_client.post(ADD, form_data(dsn="")).content.decode()
        assert 'type="password"' in body and "s3cret-pw" not in body


class TargetEditTests:
    def test_it_never_echoes_the_stored_password(self, admin_client, prod):
        body = admin_client.get("/manage/targets/prod/edit/").content.decode()

        assert 'name="password"' in body and "A password is stored (not shown)" in body
        assert "s3cret-pw" not in body and prod.password_encrypted not in body

    def test_an_empty_password_keeps_the_stored_one(self, admin_client, prod):
        response = admin_client.post("/manage/targets/prod/edit/", form_data(password="", interval_minutes=15))

        assert response.status_code == 302
        prod.refresh_from_db()
        assert prod.interval_minutes == 15 and prod.get_password() == "s3cret-pw"

    def test_it_writes_the_change_old_to_new_to_the_audit_log(self, admin_client, prod):
        admin_client.post("/manage/targets/prod/edit/", form_data(password="", dsn="dbhost2:1521/PROD"))

        entry = AuditLogEntry.objects.get(action=AuditLogEntry.Action.UPDATE, object_repr="prod")
        assert entry.actor_name == "ada"
        assert entry.changes_dict == {"dsn": ["dbhost1:1521/PROD", "dbhost2:1521/PROD"]}

    def test_it_refuses_switching_to_awr_without_a_dsn(self, admin_client, prod):
        response = admin_client.post("/manage/targets/prod/edit/", form_data(mode="awr", dsn="", password=""))

        assert response.status_code == 400
        assert response.context["form"].errors["dsn"] == ["Required for a live Oracle target (awr mode)."]
        prod.refresh_from_db()
        assert prod.mode == "nopack" and prod.dsn == "dbhost1:1521/PROD"

    def test_it_answers_404_for_an_unknown_target(self, admin_client, db):
        assert admin_client.get("/manage/targets/nope/edit/").status_code == 404


class TargetDeleteTests:
    def test_the_confirmation_names_what_goes_with_the_target(self, admin_client, prod):
        CollectionRun.objects.create(target=prod, status="succeeded", queued_at=timezone.now())
        TargetCheck.objects.create(target=prod, queued_at=timezone.now())

        response = admin_client.get("/manage/targets/prod/delete/")

        assert response.context["summary"] == [("collection run", 1), ("connection check", 1)]
        body = response.content.decode()
        assert "Delete target prod?" in body and "<strong>1</strong> collection run" in body

    def test_it_deletes_only_when_the_name_is_typed(self, admin_client, prod):
        response = admin_client.post("/manage/targets/prod/delete/", {"confirm_name": "prd"})

        assert response.status_code == 400
        assert response.context["form"].errors["confirm_name"] == ["'prd' is not 'prod': nothing was deleted."]
        assert "is not &#x27;prod&#x27;: nothing was deleted." in response.content.decode()
        assert Target.objects.filter(name="prod").exists()

    def test_it_deletes_the_target_at_once_its_data_on_a_worker_and_audits_it(
            self, admin_client, prod, django_capture_on_commit_callbacks):
        CollectionRun.objects.create(target=prod, status="succeeded", queued_at=timezone.now())

        with django_capture_on_commit_callbacks() as purge:
            response = admin_client.post("/manage/targets/prod/delete/", {"confirm_name": "prod"})

        assert response.status_code == 302
        assert not Target.objects.exists() and CollectionRun.objects.exists()  # gone from the pages; data waits
        assert [str(m) for m in get_messages(response.wsgi_request)] == [
            "Deleted target prod; a worker removes its 1 collection run in the background."]
        assert admin_client.get("/manage/targets/prod/delete/").status_code == 404
        for send in purge:
            send()  # the worker's purge (tasks run eagerly in tests)
        assert not Target.all_objects.exists() and not CollectionRun.objects.exists()
        deleted = AuditLogEntry.objects.get(action=AuditLogEntry.Action.DELETE, object_repr="prod")
        summary = AuditLogEntry.objects.get(additional_data__action="delete target")
        assert deleted.actor_name == "ada"
        assert summary.target_name == "prod" and summary.additional_data["detail"] == "1 collection run"

    def test_it_refuses_a_get_that_would_delete(self, admin_client, prod):
        admin_client.get("/manage/targets/prod/delete/?confirm_name=prod")
        assert Target.objects.filter(name="prod").exists()


# Committed for real: the check's task is sent once the view's transaction commits, as in production.
@pytest.mark.django_db(transaction=True)
class TargetCheckStartTests:
    def test_it_queues_a_check_and_answers_with_where_to_follow_it(self, admin_client, demo_target):
        response = admin_client.post("/manage/targets/demo/check/", HTTP_ACCEPT="application/json")

        check = TargetCheck.objects.get(target=demo_target)
        body = response.json()
        assert response.status_code == 202 and check.requested_by == "ada"
        assert body["status_url"] == f"/targets/demo/check/{check.pk}/status/"
        assert body["page_url"] == f"/targets/demo/check/{check.pk}/"
        assert body["status"] == check.status == "passed"  # tests run tasks eagerly: the demo has nothing to reach

    def test_a_form_post_lands_on_the_checks_page(self, admin_client, demo_target):
        response = admin_client.post("/manage/targets/demo/check/")
        check = TargetCheck.objects.get(target=demo_target)
        assert response.status_code == 302 and response["Location"] == f"/targets/demo/check/{check.pk}/"

    def test_it_audits_the_request(self, admin_client, demo_target):
        admin_client.post("/manage/targets/demo/check/", HTTP_ACCEPT="application/json")
        entry = AuditLogEntry.objects.get(additional_data__action="test connection")
        check = TargetCheck.objects.get(target=demo_target)
        assert entry.actor_name == "ada" and entry.target_name == "demo"
        assert entry.additional_data["outcome"] == f"queued as check {check.pk}"

    def test_a_broker_that_is_down_answers_at_once_with_the_reason(self, admin_client, demo_target):
        from kombu.exceptions import OperationalError

        from apps.targets.tasks import target_check

        with mock.patch.object(target_check, "apply_async", side_effect=OperationalError("connection refused")):
            response = admin_client.post("/manage/targets/demo/check/", HTTP_ACCEPT="application/json")

        assert response.status_code == 503
        assert "the task broker did not answer (connection refused)" in response.json()["error"]
        assert TargetCheck.objects.get(target=demo_target).status == "failed"
        entry = AuditLogEntry.objects.get(additional_data__action="test connection")
        assert entry.additional_data["outcome"].startswith("not queued: Could not queue the check")

    def test_it_needs_a_post(self, admin_client, demo_target):
        assert admin_client.get("/manage/targets/demo/check/").status_code == 405
