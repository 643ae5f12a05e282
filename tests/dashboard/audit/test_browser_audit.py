"""/audit/ in a real browser: a tier price edited on /tiers/ shows with its old and new value and author."""

from __future__ import annotations

import pytest

from tests.browser import login, shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


class AuditPageBrowserTests:
    def test_a_tier_price_edit_shows_in_the_audit_log(self, page, live_server, admin_user, demo_target):
        from apps.tiering.models import Tier

        tier = Tier.objects.filter(kind=Tier.Kind.DEVICE).order_by("pk").first()
        old_price = f"{tier.device_cost_usd}"
        login(page, live_server, "ada")

        page.goto(f"{live_server.url}/tiers/{tier.id}/edit/")
        page.fill("#id_device_cost_usd", "12345.67")
        page.click("form.tier-form button[type=submit]")
        page.wait_for_url(f"{live_server.url}/tiers/")
        page.click("nav >> text=Audit")
        page.wait_for_url(f"{live_server.url}/audit/")

        row = page.locator("#audit-table tbody tr").first
        assert f"device_cost_usd {old_price} → 12345.67" in row.inner_text()
        assert "ada" in row.inner_text()
        shot(page, "audit")
