"""A page's charts are drawn each on its own (static/js/charts/common.js drawEach): one that fails says so in its
place, and the others are drawn."""

from __future__ import annotations

import re

import pytest

from tests.browser import assert_drawn, login, shot, watch_script_errors

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DATA_IO = re.compile(r'(<script id="data-io" type="application/json">)(.*?)(</script>)', re.DOTALL)


class ChartIsolationBrowserTests:
    def test_a_chart_whose_data_is_broken_says_so_and_the_page_s_other_charts_are_drawn(
            self, browser, live_server, admin_user, collected):
        from apps.tiering.models import Recommendation

        top = Recommendation.objects.current(target_id=collected.id).counted().order_by("-savings_usd").first()
        path = f"/targets/demo/segments/{top.segment_id}/"
        context = browser.new_context(viewport={"width": 1400, "height": 1000})
        try:
            page = context.new_page()
            errors = watch_script_errors(page)
            login(page, live_server, admin_user.username)

            def broken_io(route):  # the page as served, its IO chart's data cut short
                response = route.fetch()
                body, cut = DATA_IO.subn(r'\1{"labels": ["x"], "reads": [1\3', response.text())
                assert cut == 1, "the page has no data-io element"
                route.fulfill(response=response, body=body)

            page.route(f"{live_server.url}{path}", broken_io)
            page.goto(f"{live_server.url}{path}")

            note = page.locator(".chart-failed[data-chart=chart-io]")
            assert "This chart could not be drawn" in note.inner_text()
            assert page.locator("#chart-io").count() == 0
            for canvas in ("chart-size", "chart-residency"):
                assert_drawn(page, canvas)
            assert len(errors) == 1 and "chart chart-io not drawn" in errors[0], errors
            shot(page, "segment_chart_failed")
        finally:
            context.close()
