"""The import page /targets/<name>/import/: admins upload AWR reports and offline extracts."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import include, path
from django.utils.html import escape

import config.urls
from apps.snapshots.models import Segment, SegmentStat, Snapshot
from apps.targets.models import Target

# Until config/urls.py includes apps.targets.urls, these tests route through this module.
urlpatterns = [path("", include("apps.targets.urls")), *config.urls.urlpatterns]

SAMPLES = Path(__file__).resolve().parents[2] / ".." / "shared" / "awr-samples"
EXTRACTS = Path(__file__).resolve().parents[1] / "targets" / "extract" / "fixtures"
HTML_11G = "pcambell__awrrptanalyzor__awrrpt__11g__awrrpt_1_36006_36007.html"
URL = "/targets/xydb/import/"


def _report_upload(name: str = HTML_11G, data: bytes | None = None) -> SimpleUploadedFile:
    return SimpleUploadedFile(name, (SAMPLES / name).read_bytes() if data is None else data, "text/html")


def _extract_zip(name: str = "single") -> SimpleUploadedFile:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for item in (EXTRACTS / name).iterdir():
            archive.write(item, item.name)
    return SimpleUploadedFile(f"{name}.zip", buffer.getvalue(), "application/zip")


def _rows(target: Target) -> tuple[int, int, int]:
    return (Snapshot.objects.filter(target=target).count(), SegmentStat.objects.filter(snapshot__target=target).count(),
            Segment.objects.filter(target=target).count())


@pytest.mark.django_db
@pytest.mark.urls(__name__)
class ImportPageTests:
    def test_it_shows_both_forms_with_the_limit(self, admin_client, report_target):
        response = admin_client.get(URL)

        assert response.status_code == 200
        body = response.content.decode()
        assert 'name="report-report"' in body and 'name="report-sizes"' in body
        assert 'name="extract-extract"' in body
        assert "50 MB" in body
        assert "csrfmiddlewaretoken" in body

    def test_it_forbids_viewers(self, viewer_client, report_target):
        assert viewer_client.get(URL).status_code == 403
        response = viewer_client.post(URL, {"kind": "report", "report-report": _report_upload()})

        assert response.status_code == 403
        assert _rows(report_target) == (0, 0, 0)

    def test_it_sends_anonymous_users_to_the_login_page(self, client, report_target):
        response = client.get(URL)

        assert response.status_code == 302
        assert response.url.startswith("/accounts/login/")

    def test_it_answers_404_for_an_unknown_target(self, admin_client, db):
        assert admin_client.get("/targets/nope/import/").status_code == 404

    def test_it_imports_a_report_and_redirects_to_the_target_page(self, admin_client, report_target):
        response = admin_client.post(URL, {"kind": "report", "report-report": _report_upload()}, follow=False)

        assert response.status_code == 302
        assert response.url == "/targets/xydb/"
        assert _rows(report_target) == (1, 22, 22)
        # 1 snapshot + 22 segment stats + 4 system stats + 12 tablespaces.
        messages = [str(m) for m in response.wsgi_request._messages]
        assert messages == [f"AWR report {HTML_11G}: imported 1 snapshot(s), 39 rows."]

    def test_it_imports_a_report_with_a_sizes_file(self, admin_client, report_target):
        sizes = SimpleUploadedFile(
            "sizes.csv",
            b"OWNER,SEGMENT_NAME,PARTITION_NAME,SEGMENT_TYPE,TABLESPACE_NAME,BYTES,BLOCKS,BUFFER_POOL,FLASH_CACHE,"
            b"CELL_FLASH_CACHE,OBJ_NUMBER,DATAOBJ_NUMBER,LOB_TABLE_NAME,LOB_COLUMN_NAME,LOB_TABLE_PARTITION_NAME\n"
            b'"IDC_U_UNIAUTH","T_ONLINE_USER","","TABLE","TS_UNIAUTH","1073741824","131072","","","","","","","",""\n',
        )

        response = admin_client.post(URL, {"kind": "report", "report-report": _report_upload(), "report-sizes": sizes})

        assert response.status_code == 302
        assert Segment.objects.get(target=report_target, object_name="T_ONLINE_USER").size_bytes == 1073741824

    def test_it_says_so_when_a_report_was_already_imported(self, admin_client, report_target):
        admin_client.post(URL, {"kind": "report", "report-report": _report_upload()})

        response = admin_client.post(URL, {"kind": "report", "report-report": _report_upload()}, follow=True)

        assert "nothing new" in response.content.decode()
        assert _rows(report_target) == (1, 22, 22)

    def test_it_shows_the_parser_error_and_stores_nothing(self, admin_client, report_target):
        data = (SAMPLES / HTML_11G).read_bytes()

        response = admin_client.post(URL, {"kind": "report", "report-report": _report_upload(data=data[:20000])})

        assert response.status_code == 400
        error = response.context["error"]
        assert error.startswith(HTML_11G)
        assert escape(error) in response.content.decode()
        assert _rows(report_target) == (0, 0, 0)

    def test_it_refuses_a_name_longer_than_oracle_allows_with_its_line_not_a_500(self, admin_client, report_target):
        # 100 characters fit the 128-character column, but they are 200 bytes: more than an Oracle name holds
        data = (SAMPLES / HTML_11G).read_bytes().replace(b">T_ONLINE_USER<", ">{}<".format("É" * 100).encode(), 1)

        response = admin_client.post(URL, {"kind": "report", "report-report": _report_upload(data=data)})

        assert response.status_code == 400
        error = response.context["error"]
        assert error.startswith(f"{HTML_11G}, line 2968: ") and "object name" in error and "200 bytes" in error
        assert "\n" not in error
        assert _rows(report_target) == (0, 0, 0)

    def test_it_imports_a_compare_period_report_as_two_snapshots(self, admin_client, report_target):
        fixture = Path(__file__).resolve().parents[1] / "targets" / "awr_report" / "fixtures" / "awrdiff_19c.txt"
        upload = SimpleUploadedFile("awrdiff_19c.txt", fixture.read_bytes(), "text/plain")

        response = admin_client.post(URL, {"kind": "report", "report-report": upload}, follow=True)

        assert response.status_code == 200
        assert sorted(Snapshot.objects.filter(target=report_target).values_list("snap_id", flat=True)) == [89, 92]
        assert "truncated" not in response.content.decode()

    def test_it_says_why_an_instance_report_of_an_imported_global_interval_adds_nothing(self, admin_client,
                                                                                          report_target):
        from tests.snapshots.import_files import GLOBAL, INSTANCE_1, as_instance_of_the_global_interval

        admin_client.post(URL, {"kind": "report", "report-report": _report_upload(GLOBAL)})
        upload = SimpleUploadedFile("i1.txt", as_instance_of_the_global_interval(INSTANCE_1), "text/plain")

        response = admin_client.post(URL, {"kind": "report", "report-report": upload}, follow=True)

        page = response.content.decode()
        assert "nothing new:" in page and "the global RAC report of the same interval" in page
        assert "it was already imported" not in page

    def test_it_refuses_an_upload_over_the_limit(self, admin_client, report_target, settings):
        from apps.core.config import get_config

        get_config.cache_clear()
        settings.TIERSCOPE = {"MAX_UPLOAD_BYTES": 1024 * 1024}
        try:
            big = _report_upload(name="big.html", data=b"<html>" + b" " * (1024 * 1024 + 1))
            response = admin_client.post(URL, {"kind": "report", "report-report": big})
        finally:
            get_config.cache_clear()

        assert response.status_code == 400
        assert "more than the 1 MB allowed" in response.content.decode()
        assert _rows(report_target) == (0, 0, 0)

    def test_it_imports_an_extract_zip(self, admin_client, report_target):
        response = admin_client.post(URL, {"kind": "extract", "extract-extract": _extract_zip()})

        assert response.status_code == 302
        assert response.url == "/targets/xydb/"
        assert _rows(report_target) == (3, 4, 4)

    def test_it_refuses_an_extract_that_is_not_a_zip(self, admin_client, report_target):
        not_zip = SimpleUploadedFile("extract.zip", b"INSTANCE_NUMBER\n")

        response = admin_client.post(URL, {"kind": "extract", "extract-extract": not_zip})

        assert response.status_code == 400
        assert "is not a .zip file" in response.content.decode()

    def test_it_names_the_bad_line_of_an_extract(self, admin_client, report_target, tmp_path):
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w") as archive:
            for item in (EXTRACTS / "single").iterdir():
                text = item.read_text()
                if item.name == "segments.csv":
                    text += '"APP","X","","TABLE","USERS","huge","1","","","","","","","",""\n'
                archive.writestr(item.name, text)
        upload = SimpleUploadedFile("bad.zip", buffer.getvalue())

        response = admin_client.post(URL, {"kind": "extract", "extract-extract": upload})

        assert response.status_code == 400
        assert response.context["error"] == "segments.csv, line 6, column BYTES: 'huge' is not a whole number"
        assert _rows(report_target) == (0, 0, 0)

    def test_it_refuses_a_post_without_a_form_kind(self, admin_client, report_target):
        response = admin_client.post(URL, {})

        assert response.status_code == 400
        assert "Choose a form" in response.content.decode()
