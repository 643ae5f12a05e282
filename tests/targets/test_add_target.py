from __future__ import annotations

import io

import pytest
from django.core.management import CommandError, call_command

from apps.targets.models import Target, TargetCheck


@pytest.mark.django_db
class AddTargetCommandTests:
    def test_it_reads_the_password_from_stdin_and_stores_it_encrypted(self, monkeypatch):
        monkeypatch.setattr("sys.stdin", io.StringIO("S3cret!pw\n"))
        out = io.StringIO()

        call_command("add_target", "--name", "sales", "--dsn", "db1:1521/SALES", "--user", "TIERSCOPE",
                     "--mode", "nopack", "--password-stdin", stdout=out)

        target = Target.objects.get(name="sales")
        assert target.mode == "nopack" and target.dsn == "db1:1521/SALES"
        assert "S3cret" not in target.password_encrypted  # encrypted at rest
        assert target.get_password() == "S3cret!pw"
        assert "sales" in out.getvalue()

    def test_it_has_no_password_option_on_the_command_line(self):
        with pytest.raises(CommandError, match="unrecognized arguments"):
            call_command("add_target", "--name", "x", "--mode", "awr", "--password", "pw")

    def test_a_live_target_without_a_password_is_refused_with_the_reason(self):
        with pytest.raises(CommandError, match="password"):
            call_command("add_target", "--name", "sales", "--dsn", "db1:1521/SALES", "--user", "U", "--mode", "awr")
        assert not Target.objects.exists()

    def test_a_bad_name_is_refused_naming_the_field(self, monkeypatch):
        monkeypatch.setattr("sys.stdin", io.StringIO("pw\n"))
        with pytest.raises(CommandError, match="name"):
            call_command("add_target", "--name", "bad name!", "--dsn", "h:1/S", "--user", "U", "--mode", "awr",
                         "--password-stdin")


    def test_a_report_target_is_told_it_is_fed_by_imports_and_not_collected(self):
        out = io.StringIO()

        call_command("add_target", "--name", "xydb", "--mode", "report", stdout=out)

        said = out.getvalue()
        assert "collection" not in said and "within a minute" not in said
        assert "/targets/xydb/import/" in said
        assert "manage.py import_awr_report" in said and "manage.py import_extract" in said

    @pytest.mark.parametrize(("mode", "interval", "every"), [("demo", "60", "every hour"),
                                                             ("nopack", "15", "every 15 minutes")])
    def test_a_collected_target_is_told_how_often_beat_collects_it(self, monkeypatch, mode, interval, every):
        monkeypatch.setattr("sys.stdin", io.StringIO("pw\n"))
        out = io.StringIO()

        call_command("add_target", "--name", "sales", "--dsn", "db1:1521/SALES", "--user", "U", "--mode", mode,
                     "--interval", interval, "--password-stdin", stdout=out)

        said = out.getvalue()
        assert f"beat collects sales {every}" in said and "within a minute" in said
        assert "manage.py collect sales" in said and "import" not in said


@pytest.mark.django_db
class TargetAdminTests:
    def test_the_password_field_is_write_only(self, admin_client):
        target = Target(name="sales", mode="awr", dsn="h:1521/S", username="U")
        target.set_password("hunter2-secret")
        target.save()

        page = admin_client.get(f"/admin/targets/target/{target.id}/change/").content.decode()

        assert "hunter2-secret" not in page
        assert target.password_encrypted not in page

    def test_a_viewer_cannot_open_the_admin(self, viewer_client):
        response = viewer_client.get("/admin/targets/target/")
        assert response.status_code == 302 and "/admin/login/" in response["Location"]


@pytest.mark.django_db(transaction=True)
class TargetCheckTests:
    def test_the_admin_action_reports_an_unreachable_listener(self, admin_client):
        target = Target(name="sales", mode="nopack", dsn="127.0.0.1:9/SALES", username="U")
        target.set_password("pw")
        target.save()

        response = admin_client.post("/admin/targets/target/", {"action": "test_connection", "index": "0",
                                                                  "_selected_action": [target.id]})

        # The check runs as a task (eager in tests), its outcome on the check's page.
        check = TargetCheck.objects.get(target=target)
        assert response.status_code == 302 and response["Location"] == f"/targets/sales/check/{check.pk}/"
        assert check.status == TargetCheck.Status.FAILED
        assert check.error.startswith("DPY-6005: 127.0.0.1:9/SALES refused the connection")

    def test_the_demo_target_checks_clean(self, demo_target, django_capture_on_commit_callbacks):
        from apps.targets.services import target_check_enqueue

        with django_capture_on_commit_callbacks(execute=True):
            check = target_check_enqueue(target=demo_target, requested_by="test")
        check.refresh_from_db()
        assert (check.status, check.error) == (TargetCheck.Status.PASSED, "")
