"""The storage map in a real browser: an admin maps the demo's disk groups to tiers on the target page."""

from __future__ import annotations

import pytest

from tests.browser import SHOTS, login

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


class StorageMapBrowserTests:
    def test_an_admin_maps_disk_groups_and_the_flags_show(self, page, live_server, admin_user, collected):
        from apps.targets.models import StorageLocation
        from apps.tiering.models import Refresh

        login(page, live_server, admin_user.username)
        page.goto(f"{live_server.url}/targets/demo/#storage-map")
        card = page.locator("#storage-map")
        assert card.locator("#storage-locations tbody tr").count() == 3
        assert "first two components stand for the mount point" in card.inner_text()

        # +DATA on fast disk, its array tiering by itself; then +FLASH on flash: SOE_INDEX is over both.
        data = card.locator('tr[data-location="+DATA"]')
        data.locator("select[name=tier]").select_option(label="fast disk")
        data.locator("input[name=array_tiering]").check()
        data.locator("button[type=submit]").click()
        page.wait_for_url(f"{live_server.url}/targets/demo/#storage-map")
        flash = page.locator('#storage-map tr[data-location="+FLASH"]')
        flash.locator("select[name=tier]").select_option(label="flash")
        flash.locator("button[type=submit]").click()
        page.wait_for_url(f"{live_server.url}/targets/demo/#storage-map")

        # Saved, audited and recomputed (eager in tests); the page says what follows from it.
        assert StorageLocation.objects.get(name="+DATA").array_tiering
        assert Refresh.objects.filter(target=collected).latest("queued_at").status == Refresh.Status.SUCCEEDED
        card = page.locator("#storage-map")
        assert "Recompute queued" in page.locator("body").inner_text()
        assert card.locator('tr[data-location="+DATA"] td').nth(9).inner_text().strip() == "fast disk"
        # Each disk group with its redundancy and free space (V$ASM_DISKGROUP_STAT), the mount point without.
        flash_cells = card.locator('tr[data-location="+FLASH"] td')
        assert flash_cells.nth(4).inner_text().strip() == "NORMAL"
        assert flash_cells.nth(5).inner_text().strip() == "400 GB"
        assert "GB" in flash_cells.nth(7).inner_text() and "kept for mirror recovery" in flash_cells.nth(7).inner_text()
        assert card.locator('tr[data-location="/u03/oradata"] td').nth(7).inner_text().strip() == "not read"
        soe_index = card.locator('tr[data-tablespace="SOE_INDEX"]').inner_text()
        assert "spread over several tiers (fast disk, flash)" in soe_index
        assert "double tiering: the array pool behind +DATA tiers by itself" in soe_index
        assert "tablespaces flagged" in card.inner_text()
        card.screenshot(path=str(SHOTS / "storage_map.png"))
