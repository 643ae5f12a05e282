"""The audit log: model changes with old and new values and their author, actions, and no credentials."""

from __future__ import annotations

import getpass
import io
import json
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import include, path
from django_celery_beat.models import IntervalSchedule, PeriodicTask

import config.urls
from apps.core.models import AuditLogEntry
from apps.targets.models import TablespaceTier, Target
from apps.tiering.models import Tier

# As in tests/snapshots/test_import_views.py: the import page routed whatever config/urls.py includes.
urlpatterns = [path("", include("apps.targets.urls")), *config.urls.urlpatterns]

SAMPLES = Path(__file__).resolve().parents[2] / ".." / "shared" / "awr-samples"
EXTRACTS = Path(__file__).resolve().parents[1] / "targets" / "extract" / "fixtures"
HTML_11G = "pcambell__awrrptanalyzor__awrrpt__11g__awrrpt_1_36006_36007.html"
CREATE, UPDATE, ACCESS = AuditLogEntry.Action.CREATE, AuditLogEntry.Action.UPDATE, AuditLogEntry.Action.ACCESS
COMMAND_ACTOR = f"(os user {getpass.getuser()})"

pytestmark = pytest.mark.django_db


def entries_about(obj, action=None):
    found = AuditLogEntry.objects.filter(content_type__model=obj._meta.model_name, object_pk=str(obj.pk))
    return found.filter(action=action) if action is not None else found


def actions(name: str):
    return AuditLogEntry.objects.filter(action=ACCESS, additional_data__action=name)


def whole_log() -> str:
    """Every stored text of every entry, as an auditor reading the table would see it."""
    rows = AuditLogEntry.objects.values("object_repr", "changes", "changes_text", "additional_data",
                                        "serialized_data", "actor_name", "target_name", "cid")
    return json.dumps(list(rows), default=str)


def tier_form_data(tier: Tier, **changes) -> dict:
    from apps.dashboard.tiers.forms import TierForm

    form = TierForm(instance=tier)
    data = {name: form.initial.get(name) for name in form.fields}
    data.update(changes)
    return {key: ("" if value is None else value) for key, value in data.items() if value is not False}


class ModelChangeTests:
    def test_it_logs_a_tier_price_change_on_the_tiers_page_with_old_and_new_value_and_author(
            self, admin_client, admin_user, seed_tiers):
        tier = Tier.objects.filter(kind=Tier.Kind.DEVICE).order_by("pk").first()
        old = tier.device_cost_usd

        response = admin_client.post(f"/tiers/{tier.id}/edit/", tier_form_data(tier, device_cost_usd="12345.67"))

        assert response.status_code == 302
        entry = entries_about(tier, UPDATE).get()
        assert entry.changes_dict["device_cost_usd"] == [str(old), "12345.67"]
        assert entry.actor == admin_user and entry.actor_name == "ada"

    def test_it_logs_a_tablespace_map_change_with_its_target(self, admin_client, seed_tiers):
        target = Target.objects.create(name="sales", mode=Target.Mode.REPORT)
        fast, slow = Tier.objects.order_by("pk")[:2]
        row = TablespaceTier.objects.create(target=target, tablespace_name="USERS", tier=fast)

        response = admin_client.post(f"/admin/targets/tablespacetier/{row.pk}/change/",
                                     {"target": target.pk, "tablespace_name": "USERS", "tier": slow.pk})

        assert response.status_code == 302
        entry = entries_about(row, UPDATE).get()
        assert entry.changes_dict["tier"] == [str(fast), str(slow)]  # names, not primary keys
        assert (entry.actor_name, entry.target_name) == ("ada", "sales")

    def test_it_logs_a_target_interval_change_in_the_admin(self, admin_client):
        target = Target.objects.create(name="sales", mode=Target.Mode.REPORT, interval_minutes=60)

        response = admin_client.post(f"/admin/targets/target/{target.pk}/change/", {
            "name": "sales", "mode": "report", "dsn": "", "username": "", "password": "", "interval_minutes": "15",
            "enabled": "on", "tier_set": "seed-2009", "demo_seed": "42",
            "tablespace_tiers-TOTAL_FORMS": "0", "tablespace_tiers-INITIAL_FORMS": "0",
        })

        assert response.status_code == 302, response.content.decode()[:2000]
        entry = entries_about(target, UPDATE).get()
        assert entry.changes_dict == {"interval_minutes": ["60", "15"]}
        assert (entry.actor_name, entry.target_name) == ("ada", "sales")

    def test_it_does_not_log_what_collections_rewrite_on_a_target(self, demo_target, collect):
        AuditLogEntry.objects.all().delete()

        collect(demo_target)

        assert not entries_about(demo_target).exists()  # next_collect_at, capabilities: no one changed them

    def test_it_logs_a_schedule_change_but_not_beats_bookkeeping(self):
        every = IntervalSchedule.objects.create(every=5, period=IntervalSchedule.MINUTES)
        task = PeriodicTask.objects.create(name="collect-due", task="x", interval=every)

        task.total_run_count += 1
        task.save()  # what beat does after each run
        task.enabled = False
        task.save()

        assert entries_about(every, CREATE).exists()
        assert [e.changes_dict for e in entries_about(task, UPDATE)] == [{"enabled": ["True", "False"]}]

    def test_it_logs_users_without_the_password_hash_or_logins(self, admin_client, django_user_model):
        user = django_user_model.objects.create_user(username="otto", password="otto-first-pw")
        first_hash = user.password

        admin_client.post(f"/admin/auth/user/{user.pk}/password/",
                          {"password1": "Otto-second-pw-9", "password2": "Otto-second-pw-9", "usable_password": "true"})
        login = Client().post("/accounts/login/", {"username": "otto", "password": "Otto-second-pw-9"})
        assert login.status_code == 302  # and last_login moved

        user.refresh_from_db()
        assert user.check_password("Otto-second-pw-9")
        update = entries_about(user, UPDATE).get()
        assert update.changes_dict == {"password": ["(set)", "(set)"]} and update.actor_name == "ada"
        log = whole_log()
        assert first_hash not in log and user.password not in log and "otto-first-pw" not in log


class CredentialTests:
    def test_neither_a_password_nor_its_ciphertext_ever_reaches_the_log(self, admin_client, monkeypatch):
        # Created and changed through the admin ...
        form = {"name": "sales", "mode": "awr", "dsn": "db1:1521/SALES", "username": "TS",
                "password": "First-Secret-11", "interval_minutes": "60", "enabled": "on", "tier_set": "seed-2009",
                "demo_seed": "42", "tablespace_tiers-TOTAL_FORMS": "0", "tablespace_tiers-INITIAL_FORMS": "0"}
        assert admin_client.post("/admin/targets/target/add/", form).status_code == 302
        target = Target.objects.get(name="sales")
        ciphertexts = [target.password_encrypted]
        response = admin_client.post(f"/admin/targets/target/{target.pk}/change/",
                                     {**form, "password": "Second-Secret-22"})
        assert response.status_code == 302
        target.refresh_from_db()
        ciphertexts.append(target.password_encrypted)
        # ... and through add_target.
        monkeypatch.setattr("sys.stdin", io.StringIO("Third-Secret-33\n"))
        call_command("add_target", "--name", "hr", "--dsn", "db2:1521/HR", "--user", "TS", "--mode", "nopack",
                     "--password-stdin", stdout=io.StringIO())
        ciphertexts.append(Target.objects.get(name="hr").password_encrypted)

        log = whole_log()
        for secret in ("First-Secret-11", "Second-Secret-22", "Third-Secret-33", *ciphertexts):
            assert secret not in log
        for ciphertext in ciphertexts:  # not even a half of one (auditlog's default mask keeps half)
            assert ciphertext[len(ciphertext) // 2:] not in log
        # The log still says the password was set, then changed.
        assert entries_about(target, CREATE).get().changes_dict["password_encrypted"] == ["(none)", "(set)"]
        assert entries_about(target, UPDATE).get().changes_dict == {"password_encrypted": ["(set)", "(set)"]}


class ActionTests:
    def test_it_records_collect_now_with_who_which_target_and_the_run(self, admin_client, demo_target,
                                                                       django_capture_on_commit_callbacks):
        with django_capture_on_commit_callbacks(execute=False):
            response = admin_client.post("/targets/demo/collect/", HTTP_ACCEPT="application/json")

        entry = actions("collect now").get()
        assert (entry.actor_name, entry.target_name) == ("ada", "demo")
        assert entry.additional_data["outcome"] == f"queued as run {response.json()['id']}"

    def test_it_records_tier_presets_installed(self, admin_client):
        admin_client.post("/tiers/presets/")

        entry = actions("tier presets").get()
        assert entry.actor_name == "ada" and "created" in entry.additional_data["outcome"]
        assert entries_about(Tier.objects.first(), CREATE).get().actor_name == "ada"

    @pytest.mark.urls(__name__)
    def test_it_records_an_import_on_the_page_with_its_file_and_outcome(self, admin_client):
        Target.objects.create(name="xydb", mode=Target.Mode.REPORT)
        upload = SimpleUploadedFile(HTML_11G, (SAMPLES / HTML_11G).read_bytes(), "text/html")

        admin_client.post("/targets/xydb/import/", {"kind": "report", "report-report": upload})

        entry = actions("import report").get()
        assert (entry.actor_name, entry.target_name) == ("ada", "xydb")
        assert entry.additional_data["detail"] == HTML_11G
        assert entry.additional_data["outcome"] == f"{HTML_11G}: imported 1 snapshot(s), 39 rows."

    @pytest.mark.urls(__name__)
    def test_it_records_a_refused_import_on_the_page(self, admin_client):
        Target.objects.create(name="xydb", mode=Target.Mode.REPORT)
        upload = SimpleUploadedFile("bad.txt", b"hello\n", "text/plain")

        admin_client.post("/targets/xydb/import/", {"kind": "report", "report-report": upload})

        entry = actions("import report").get()
        assert entry.additional_data["detail"] == "bad.txt"
        assert entry.additional_data["outcome"].startswith("refused: ")

    def test_it_records_an_import_command_with_the_os_user(self):
        Target.objects.create(name="xydb", mode=Target.Mode.REPORT)

        call_command("import_extract", str(EXTRACTS / "rac"), "--target", "xydb", stdout=io.StringIO())

        entry = actions("import_extract").get()
        assert entry.actor is None and entry.actor_name == f"manage.py import_extract {COMMAND_ACTOR}"
        assert (entry.target_name, entry.additional_data["detail"]) == ("xydb", "rac")
        assert entry.additional_data["outcome"].startswith("2 snapshot(s)")

    def test_it_records_a_failed_import_command_with_the_reason(self, tmp_path):
        Target.objects.create(name="xydb", mode=Target.Mode.REPORT)
        bad = tmp_path / "bad.txt"
        bad.write_text("hello\n")

        with pytest.raises(CommandError):
            call_command("import_awr_report", str(bad), "--target", "xydb")

        entry = actions("import_awr_report").get()
        assert entry.actor_name == f"manage.py import_awr_report {COMMAND_ACTOR}" and entry.target_name == "xydb"
        assert entry.additional_data["detail"] == str(bad)
        assert entry.additional_data["outcome"].startswith("failed: ")

    def test_it_records_add_target_and_the_target_it_created(self, monkeypatch):
        monkeypatch.setattr("sys.stdin", io.StringIO("pw-1\n"))

        call_command("add_target", "--name", "sales", "--dsn", "h:1/S", "--user", "U", "--mode", "awr",
                     "--password-stdin", stdout=io.StringIO())

        target = Target.objects.get(name="sales")
        created = entries_about(target, CREATE).get()
        assert created.actor_name == f"manage.py add_target {COMMAND_ACTOR}" and created.target_name == "sales"
        assert actions("add_target").get().additional_data["outcome"] == "added (awr)"

    def test_it_records_a_refused_add_target(self):
        with pytest.raises(CommandError):
            call_command("add_target", "--name", "sales", "--dsn", "h:1/S", "--user", "U", "--mode", "awr")

        entry = actions("add_target").get()
        assert entry.target_name == "sales" and entry.additional_data["outcome"].startswith("failed: ")
        assert not Target.objects.exists()


class CreateEntryTests:
    def test_a_created_target_lists_its_own_fields_only(self):
        target = Target.objects.create(name="sales", mode=Target.Mode.REPORT)

        fields = set(entries_about(target, CREATE).get().changes_dict)

        assert {"name", "mode", "interval_minutes", "tier_set"} <= fields
        assert not fields & {"id", "checks", "segments", "tablespace_tiers", "next_collect_at", "capabilities"}
