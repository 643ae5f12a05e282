"""The demo's LOB and its LOB index, and a group of moves, in a real browser: the index under its LOB in the
recommendations table, its own figures on the LOB's page, and a move's group on its segment page."""

from __future__ import annotations

import pytest

from tests.browser import login

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LOB, INDEX = "SYS_LOB0000087654C00003$$", "SYS_IL0000087654C00003$$"


class LobAndGroupBrowserTests:
    def test_the_lob_index_shows_under_its_lob_and_a_group_on_its_moves(
        self, page, live_server, admin_user, collected, tmp_path
    ):
        from apps.tiering.models import Recommendation

        current = Recommendation.objects.current(target_id=collected.id)
        lob = current.get(segment__object_name=LOB)
        grouped = current.exclude(move_group="").filter(action="move").first()
        assert grouped is not None  # the demo has moves judged with their group

        login(page, live_server, admin_user.username)
        page.goto(f"{live_server.url}/targets/demo/recommendations/?object_type=LOBSEGMENT")
        row = page.locator(f"#segments-table tbody tr[data-segment-id='{lob.segment_id}']")
        assert f"with its LOB index {INDEX}" in row.locator("[data-col=lob-index]").inner_text()
        assert page.locator("#segments-table", has_text=f"SOE.{INDEX}").count() == 0

        row.locator("a").first.click()
        page.wait_for_url(f"**/segments/{lob.segment_id}/")
        card = page.locator("#lob-indexes")
        assert card.locator("tbody tr").count() == 1 and INDEX in card.inner_text()
        page.screenshot(path=str(tmp_path / "lob.png"), full_page=True)

        page.goto(f"{live_server.url}/targets/demo/segments/{grouped.segment_id}/")
        assert page.locator("#seg-group").inner_text() == grouped.move_group
        page.screenshot(path=str(tmp_path / "grouped.png"), full_page=True)
