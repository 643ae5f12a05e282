"""The tier page's calibration upload (apps/dashboard/calibration/views.py): admins only, CSRF, capped, and a
file we cannot read is one line on the page with nothing stored."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from apps.tiering.calibration import MAX_FILE_BYTES

SAMPLES = Path(__file__).resolve().parents[2] / "tiering" / "fixtures" / "calibration"

pytestmark = pytest.mark.django_db


def _tier(name: str = "flash"):
    from apps.tiering.models import Tier

    return Tier.objects.get(name=name)


def _upload(name: str, data: bytes) -> SimpleUploadedFile:
    return SimpleUploadedFile(name, data, content_type="application/octet-stream")


def _sample(name: str) -> SimpleUploadedFile:
    return _upload(name, (SAMPLES / name).read_bytes())


class CalibrationUploadTests:
    def test_it_stores_an_orion_summary_and_sends_the_admin_to_the_tier_catalog(self, admin_client, seed_tiers):
        tier = _tier("fast disk")

        response = admin_client.post(f"/tiers/{tier.id}/calibration/",
                                     {"calibration": _sample("mytest_20081111_1431_summary.txt")}, follow=True)

        assert response.redirect_chain == [("/tiers/#set-seed-2009", 302)]
        tier.refresh_from_db()
        assert (tier.device_iops, tier.read_latency_ms) == (442.0, 14.62)
        page = response.content.decode()
        assert "Stored mytest_20081111_1431_summary.txt (orion) on tier fast disk." in page
        assert 'id="measured-seed-2009"' in page and "2008-11-11 14:31 UTC" in page

    def test_a_bad_file_is_one_line_on_the_tier_page_and_stores_nothing(self, admin_client, seed_tiers):
        from apps.core.models import AuditLogEntry

        tier = _tier()
        response = admin_client.post(f"/tiers/{tier.id}/calibration/", {"calibration": _upload("x.json", b'{"jobs": 3}')})

        assert response.status_code == 400
        assert '<p class="error" id="calibration-error" role="alert">x.json: not fio JSON: no &quot;jobs&quot; list</p>' \
            in response.content.decode()
        tier.refresh_from_db()
        assert tier.device_iops == 30000 and not tier.calibrations.exists()
        refused = AuditLogEntry.objects.get(action=AuditLogEntry.Action.ACCESS)
        assert refused.additional_data["outcome"].startswith("refused: x.json: not fio JSON")

    def test_it_refuses_a_file_past_its_limit_before_reading_it(self, admin_client, seed_tiers):
        tier = _tier()

        response = admin_client.post(f"/tiers/{tier.id}/calibration/",
                                     {"calibration": _upload("huge.json", b" " * (MAX_FILE_BYTES + 1))})

        assert response.status_code == 400
        assert "huge.json: larger than the 20 MB a calibration file may be" in response.content.decode()
        assert not tier.calibrations.exists()

    def test_the_upload_handler_drops_a_file_past_the_site_limit_while_it_streams(self, admin_client, seed_tiers,
                                                                                  settings):
        from apps.core.config import get_config

        tier = _tier()
        get_config.cache_clear()
        settings.TIERSCOPE = {"MAX_UPLOAD_BYTES": 1024 * 1024}
        try:
            response = admin_client.post(f"/tiers/{tier.id}/calibration/",
                                         {"calibration": _upload("big.json", b" " * (1024 * 1024 + 1))})
        finally:
            get_config.cache_clear()

        assert response.status_code == 400
        assert "big.json: more than the 1 MB allowed" in response.content.decode()
        assert not tier.calibrations.exists()

    def test_no_file_says_so(self, admin_client, seed_tiers):
        response = admin_client.post(f"/tiers/{_tier().id}/calibration/", {})

        assert response.status_code == 400
        assert "Choose a calibration file to upload." in response.content.decode()

    def test_it_is_for_admins_only(self, viewer_client, seed_tiers):
        tier = _tier()

        response = viewer_client.post(f"/tiers/{tier.id}/calibration/", {"calibration": _sample("fio3_randread_fioplot.json")})

        assert response.status_code == 403
        assert not tier.calibrations.exists()

    def test_it_takes_posts_only(self, admin_client, seed_tiers):
        assert admin_client.get(f"/tiers/{_tier().id}/calibration/").status_code == 405

    def test_it_needs_the_csrf_token(self, admin_user, seed_tiers):
        client = Client(enforce_csrf_checks=True)
        client.force_login(admin_user)

        response = client.post(f"/tiers/{_tier().id}/calibration/", {"calibration": _sample("fio3_randread_fioplot.json")})

        assert response.status_code == 403
        assert not _tier().calibrations.exists()

    def test_the_tier_page_offers_the_upload_and_shows_the_latest_measurement(self, admin_client, seed_tiers):
        tier = _tier()
        admin_client.post(f"/tiers/{tier.id}/calibration/", {"calibration": _sample("dba_rsrc_io_calibrate.txt")})

        page = admin_client.get(f"/tiers/{tier.id}/edit/").content.decode()

        assert f'action="/tiers/{tier.id}/calibration/"' in page and 'enctype="multipart/form-data"' in page
        assert "From CALIBRATE_IO file dba_rsrc_io_calibrate.txt, measured on a date the file does not give" in page
        assert "<style" not in page and "onclick" not in page  # CSP: no inline style or handlers
