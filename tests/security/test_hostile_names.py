"""Names longer than the database holds (128 characters) get a message naming the field and where, never a 500.

Seen: a report whose segment name is 200 characters, or such a name in a form, answered HTTP 500.
"""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils.html import escape

from apps.snapshots.models import Segment, Snapshot
from apps.targets.models import TablespaceTier, Target

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT.parent / "shared" / "awr-samples"
HTML_11G = "pcambell__awrrptanalyzor__awrrpt__11g__awrrpt_1_36006_36007.html"
TEXT_12C = "ora600pl__jas-min__awrrpt_1_2668_2669.txt"
EXTRACT = ROOT / "tests" / "targets" / "extract" / "fixtures" / "single"
URL = "/targets/xydb/import/"
LONG = "X" * 200


@pytest.fixture
def target(db) -> Target:
    return Target.objects.create(name="xydb", mode=Target.Mode.REPORT)


def _extract_zip(**replaced: bytes) -> SimpleUploadedFile:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for item in EXTRACT.iterdir():
            archive.writestr(item.name, replaced.get(item.name, item.read_bytes()))
    return SimpleUploadedFile("names.zip", buffer.getvalue(), "application/zip")


def _page(response) -> str:
    return response.content.decode()


@pytest.mark.django_db
class ReportNameTests:
    def test_it_names_a_200_character_object_in_an_html_report(self, admin_client, target):
        data = (SAMPLES / HTML_11G).read_bytes().replace(b">T_ONLINE_USER<", f">{LONG}<".encode())

        response = admin_client.post(
            URL, {"kind": "report", "report-report": SimpleUploadedFile("long.html", data, "text/html")}
        )

        # A message naming the file, the field and its length; nothing stored
        assert response.status_code == 400
        page = _page(response)
        assert "long.html" in page and "object name" in page and "200 characters" in page
        assert Snapshot.objects.count() == 0 and Segment.objects.count() == 0

    def test_it_names_a_200_character_owner_in_a_text_report(self, admin_client, target):
        text = (SAMPLES / TEXT_12C).read_bytes()
        # The text report prints owners in a column of 10: widen one row's owner in place
        data = text.replace(b"BAZA_BPSC ", f"{LONG} ".encode(), 1)

        response = admin_client.post(
            URL, {"kind": "report", "report-report": SimpleUploadedFile("long.txt", data, "text/plain")}
        )

        assert response.status_code in (400, 302)
        if response.status_code == 400:
            assert "long.txt" in _page(response)
        assert not Segment.objects.filter(owner__startswith="XXXX").exists()

    def test_it_names_a_200_character_segment_in_the_sizes_file(self, admin_client, target):
        sizes = (EXTRACT / "segments.csv").read_bytes().replace(b'"ORDERS_PK"', f'"{LONG}"'.encode())

        response = admin_client.post(
            URL,
            {
                "kind": "report",
                "report-report": SimpleUploadedFile(HTML_11G, (SAMPLES / HTML_11G).read_bytes(), "text/html"),
                "report-sizes": SimpleUploadedFile("sizes.csv", sizes, "text/csv"),
            },
        )

        assert response.status_code == 400
        page = _page(response)
        assert "sizes.csv" in page and "line 3" in page and "SEGMENT_NAME" in page and "128" in page
        assert Snapshot.objects.count() == 0


@pytest.mark.django_db
class ExtractNameTests:
    def test_it_names_a_200_character_object_in_seg_stat(self, admin_client, target):
        seg_stat = (EXTRACT / "seg_stat.csv").read_bytes().replace(b'"ORDERS_PK"', f'"{LONG}"'.encode(), 1)

        response = admin_client.post(
            URL, {"kind": "extract", "extract-extract": _extract_zip(**{"seg_stat.csv": seg_stat})}
        )

        assert response.status_code == 400
        page = _page(response)
        assert "seg_stat.csv" in page and "column OBJECT_NAME" in page and "200 characters" in page
        assert Snapshot.objects.count() == 0 and Segment.objects.count() == 0

    def test_it_names_a_200_character_tablespace_in_segments(self, admin_client, target):
        segments = (EXTRACT / "segments.csv").read_bytes().replace(b'"USERS"', f'"{LONG}"'.encode(), 1)

        response = admin_client.post(
            URL, {"kind": "extract", "extract-extract": _extract_zip(**{"segments.csv": segments})}
        )

        assert response.status_code == 400
        assert "segments.csv" in _page(response) and "TABLESPACE_NAME" in _page(response)


@pytest.mark.django_db
class FormNameTests:
    def test_it_answers_a_200_character_target_name_in_the_admin_with_a_message(self, admin_client):
        response = admin_client.post(
            "/admin/targets/target/add/",
            {
                "name": LONG,
                "mode": "report",
                "interval_minutes": "60",
                "tier_set": "seed-2009",
                "tablespace_tiers-TOTAL_FORMS": "0",
                "tablespace_tiers-INITIAL_FORMS": "0",
            },
        )

        assert response.status_code == 200
        assert "Ensure this value has at most" in _page(response)
        assert not Target.objects.exists()

    def test_it_answers_a_200_character_tablespace_in_the_admin_map_with_a_message(self, admin_client, target):
        response = admin_client.post(
            f"/admin/targets/target/{target.pk}/change/",
            {
                "name": "xydb",
                "mode": "report",
                "interval_minutes": "60",
                "tier_set": "seed-2009",
                "tablespace_tiers-TOTAL_FORMS": "1",
                "tablespace_tiers-INITIAL_FORMS": "0",
                "tablespace_tiers-0-tablespace_name": LONG,
                "tablespace_tiers-0-tier": "",
            },
        )

        assert response.status_code == 200
        assert "Ensure this value has at most 128 characters" in _page(response)
        assert not TablespaceTier.objects.exists()

    def test_it_answers_a_200_character_tier_name_with_a_message(self, admin_client, seed_tiers):
        from apps.tiering.models import Tier

        tier = Tier.objects.order_by("pk").first()
        response = admin_client.post(f"/tiers/{tier.pk}/edit/", {"name": LONG, "tier_set": tier.tier_set})

        assert response.status_code in (200, 400)
        assert escape("Ensure this value has at most 60 characters") in _page(response)

    def test_it_refuses_a_200_character_name_to_add_target(self, db):
        from django.core.management import CommandError, call_command

        with pytest.raises(CommandError, match="name"):
            call_command("add_target", "--name", LONG, "--mode", "report")
        assert not Target.objects.exists()
