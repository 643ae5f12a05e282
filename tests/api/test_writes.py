"""The admins' writes through the API: collect now and the imports, with the pages' services, upload limits and
audit entries."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from apps.core.config import get_config
from apps.core.models import AuditLogEntry
from apps.snapshots.models import CollectionRun, Snapshot

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT.parent / "shared" / "awr-samples"
EXTRACTS = ROOT / "tests" / "targets" / "extract" / "fixtures"
HTML_11G = "pcambell__awrrptanalyzor__awrrpt__11g__awrrpt_1_36006_36007.html"


def _actions(target_name: str) -> list[tuple[str, str, str]]:
    return [(e.actor_name, e.additional_data["action"], e.additional_data["outcome"])
            for e in AuditLogEntry.objects.filter(target_name=target_name, action=AuditLogEntry.Action.ACCESS)]


def _report(name: str = HTML_11G) -> SimpleUploadedFile:
    return SimpleUploadedFile(name, (SAMPLES / name).read_bytes(), "text/html")


def test_collect_now_queues_a_manual_run_and_audits_it(admin_api, big, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks() as sent:
        response = admin_api.post("/api/v1/targets/big/collect/")

    assert response.status_code == 202
    run = CollectionRun.objects.get(pk=response.json()["id"])
    assert (run.trigger, run.status, response.json()["target"]) == ("manual", "queued", "big")
    assert len(sent) == 1  # the task is sent once the run is committed
    assert _actions("big") == [("ada", "collect now", f"queued as run {run.id}")]


def test_collect_now_refuses_a_report_only_target(admin_api, report_target):
    response = admin_api.post("/api/v1/targets/xydb/collect/")

    assert response.status_code == 403
    assert "report-only" in response.json()["detail"]
    assert not CollectionRun.objects.filter(target=report_target).exists()


def test_an_admin_imports_an_awr_report_and_it_is_audited(admin_api, report_target):
    response = admin_api.post("/api/v1/targets/xydb/imports/report/", {"report": _report()}, format="multipart")

    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["run"]["trigger"] == "import" and body["run"]["status"] == "succeeded"
    assert body["outcome"].startswith(f"{HTML_11G}: imported 1 snapshot(s)")
    assert Snapshot.objects.filter(target=report_target, kind="report").count() == 1
    assert _actions("xydb") == [("ada", "import report", body["outcome"])]


def test_an_admin_imports_an_offline_extract(admin_api, report_target):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for item in (EXTRACTS / "single").iterdir():
            archive.write(item, item.name)
    upload = SimpleUploadedFile("single.zip", buffer.getvalue(), "application/zip")

    response = admin_api.post("/api/v1/targets/xydb/imports/extract/", {"extract": upload}, format="multipart")

    assert response.status_code == 201, response.json()
    assert Snapshot.objects.filter(target=report_target, kind="extract").exists()
    assert _actions("xydb")[0][1] == "import extract"


def test_a_report_of_another_database_is_refused_and_audited(admin_api, report_target):
    admin_api.post("/api/v1/targets/xydb/imports/report/", {"report": _report()}, format="multipart")
    other = "1newstar__awr2csv__sample__awr_11204_1.html"

    response = admin_api.post("/api/v1/targets/xydb/imports/report/", {"report": _report(other)}, format="multipart")

    assert response.status_code == 400
    assert response.json()["detail"].startswith("report: ")
    assert _actions("xydb")[0][2].startswith("refused: ")


def test_a_file_over_the_upload_limit_is_refused_with_the_limit_and_nothing_written(admin_api, report_target, settings):
    settings.TIERSCOPE = {**settings.TIERSCOPE, "MAX_UPLOAD_BYTES": 1024 * 1024}
    get_config.cache_clear()
    try:
        big_file = SimpleUploadedFile("huge.html", b"<html>" + b" " * (1024 * 1024 + 10), "text/html")
        response = admin_api.post("/api/v1/targets/xydb/imports/report/", {"report": big_file}, format="multipart")
    finally:
        get_config.cache_clear()

    assert response.status_code == 400
    assert "huge.html: more than the 1 MB allowed" in response.json()["detail"]
    assert not Snapshot.objects.filter(target=report_target).exists()
    assert _actions("xydb")[0][2].startswith("refused: huge.html: more than the 1 MB allowed")


def test_a_viewer_cannot_import(viewer_api, report_target):
    response = viewer_api.post("/api/v1/targets/xydb/imports/report/", {"report": _report()}, format="multipart")

    assert response.status_code == 403
    assert not Snapshot.objects.filter(target=report_target).exists()


def test_an_import_without_its_file_names_the_field(admin_api, report_target):
    response = admin_api.post("/api/v1/targets/xydb/imports/report/", {}, format="multipart")

    assert response.status_code == 400
    assert response.json()["detail"].startswith("report: ")
