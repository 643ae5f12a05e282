"""The tiers page states each tier set's hysteresis (band and days), as set in the admin."""

from __future__ import annotations

import re

import pytest

from apps.tiering.models import TierSet


def _hysteresis_line(body: str, set_name: str) -> str:
    section = body.split(f'id="set-{set_name}"', 1)[1].split("</section>", 1)[0]
    found = re.search(r'<p class="card-sub" data-col="hysteresis">(.*?)</p>', section, re.S)
    assert found, f"no hysteresis line in the section of {set_name}"
    return re.sub(r"<[^>]+>", "", found.group(1))


@pytest.mark.django_db
class TierCatalogHysteresisTests:
    def test_it_states_the_default_band_and_days(self, viewer_client, seed_tiers):
        line = _hysteresis_line(viewer_client.get("/tiers/").content.decode(), "seed-2009")

        assert "25 % past the break-even" in line and "advised 7 days of runs in a row" in line
        assert "change" not in line  # the admin link is for admins

    def test_it_states_the_sets_own_settings_with_a_link_to_change_them(self, admin_client, seed_tiers):
        response = admin_client.post("/admin/tiering/tierset/seed-2009/change/", {
            **{field: getattr(TierSet.objects.get(name="seed-2009"), field) for field in (
                "billing", "amortisation_months", "note", "move_cost_usd", "payback_horizon_months",
                "min_saving_usd_per_month")},
            "hysteresis_band": "0.4", "hysteresis_days": "1",
        })
        assert response.status_code == 302, response.content.decode()[:2000]

        body = admin_client.get("/tiers/").content.decode()

        line = _hysteresis_line(body, "seed-2009")
        assert "40 % past the break-even" in line and "advised 1 day of runs in a row" in line
        assert "/admin/tiering/tierset/seed-2009/change/" in body
