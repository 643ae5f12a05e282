"""A calibration uploaded on the tier page, in a real browser: stored, set on the tier, shown measured vs nominal."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.browser import SHOTS, assert_no_csp_violation, login, shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SAMPLES = Path(__file__).resolve().parents[2] / "tiering" / "fixtures" / "calibration"


class CalibrationBrowserTests:
    def test_an_uploaded_fio_file_sets_the_tier_and_shows_measured_vs_nominal(
        self, page, live_server, admin_user, demo_target, request
    ):
        from apps.tiering.models import Tier

        seen = request.getfixturevalue("csp_violations")  # the autouse fixture's list, checked on each page

        flash = Tier.objects.get(name="flash")
        login(page, live_server, "ada")

        # A file that is not a calibration: one line on the page, nothing stored.
        page.goto(f"{live_server.url}/tiers/{flash.id}/edit/")
        page.set_input_files("#id_calibration", files=[
            {"name": "notes.txt", "mimeType": "text/plain", "buffer": b"just some notes\n"}])
        page.click("#calibration-upload")
        error = page.locator("#calibration-error")
        assert error.inner_text() == "notes.txt: not fio JSON, ORION output or a CALIBRATE_IO result"
        assert not flash.calibrations.exists()
        assert_no_csp_violation(page, seen)

        # fio's JSON: stored, the tier's figures set, measured vs nominal on the tiers page.
        page.set_input_files("#id_calibration", str(SAMPLES / "fio3_randread_fioplot.json"))
        page.click("#calibration-upload")
        page.wait_for_url(f"{live_server.url}/tiers/#set-seed-2009")
        flash.refresh_from_db()
        assert (flash.device_iops, flash.read_latency_ms) == (6614.073, 0.135557)
        assert flash.calibrations.get().uploaded_by == admin_user
        assert "Set device IOPS 30,000 → 6,614; read latency 0.2 ms → 0.136 ms." in page.locator(".messages").inner_text()
        assert "Recompute" in page.locator(".messages").inner_text()
        row = page.locator("#measured-seed-2009 tr[data-tier=flash]")
        assert row.locator("[data-col=iops]").inner_text() == "6,614"
        assert row.locator("[data-col=nominal_iops]").inner_text() == "30,000"
        assert row.locator("[data-col=latency]").inner_text() == "0.136 ms"
        assert row.locator("[data-col=nominal_latency]").inner_text() == "0.2 ms"
        assert row.locator("[data-col=mbps]").inner_text() == "25.8"
        assert row.locator("[data-col=source]").inner_text() == "fio"
        assert row.locator("[data-col=file]").inner_text() == "fio3_randread_fioplot.json"
        assert row.locator("[data-col=measured_at]").inner_text().startswith("2019-08-04 08:39 UTC")
        assert page.locator("#set-seed-2009 tr[data-tier=flash] .pill", has_text="measured").count() == 1
        assert_no_csp_violation(page, seen)
        # The set's card: the tier catalog with the measured tier, and its measured vs nominal figures.
        page.locator("#set-seed-2009").screenshot(path=str(SHOTS / "tier_calibration.png"))

        # The tier page shows the same, with the file's source and date.
        page.goto(f"{live_server.url}/tiers/{flash.id}/edit/")
        assert "fio file fio3_randread_fioplot.json, measured 2019-08-04 08:39 UTC" in (
            page.locator("#calibration-source").inner_text())
        assert page.locator("#calibration-latest tr[data-figure=iops] td").all_inner_texts() == ["6,614", "30,000"]
        assert_no_csp_violation(page, seen)
        shot(page, "tier_calibration_edit")
