"""The pages as `make run` serves them: gunicorn and WhiteNoise answering the hashed copies collectstatic made.

The other browser tests run on the test server, which serves static/ as it is; a page module that imports a
name whose hashed copy is missing or stale would pass them and fail here. The private stack of the fault suite
is the one whole stack a test run starts, so this runs on it (before or after its faults: it waits for health).
"""

from __future__ import annotations

import re
from types import SimpleNamespace
from urllib.parse import urlsplit

import pytest

from tests.browser import assert_drawn, assert_no_csp_violation, login
from tests.faults.stack import ADMIN_PASSWORD, PrivateStack, wait_for

pytestmark = [pytest.mark.faults, pytest.mark.browser]

#: A file collectstatic names by its content: NAME.<12 hex digits>.EXT.
HASHED = re.compile(r"^/static/.+\.[0-9a-f]{12}\.(?:js|css|map)$")


def _static_answers(page) -> dict[str, int]:
    """Every static file the page's browser asks for, with its HTTP status (the dict grows as it loads)."""
    seen: dict[str, int] = {}
    page.on("response", lambda response: seen.__setitem__(urlsplit(response.url).path, response.status)
            if urlsplit(response.url).path.startswith("/static/") else None)
    return seen


class ServedPagesTests:
    def test_every_page_script_loads_from_its_hashed_copy_and_draws(self, stack: PrivateStack, page, csp_violations):
        wait_for(stack.healthy, timeout_s=120, what="the stack healthy")
        wait_for(lambda: stack.sql("SELECT 1 FROM tiering_recommendationrun r JOIN targets_target t ON t.id = "
                                   "r.target_id WHERE t.name = 'demo' AND r.state = 'current'"),
                 timeout_s=180, what="the demo target's first recommendations")
        (task_id,) = stack.sql("SELECT min(id) FROM django_celery_beat_periodictask")[0]
        served = SimpleNamespace(url=f"http://{stack.web_bind}")
        answers = _static_answers(page)
        page.context.set_default_timeout(30_000)  # a busy machine: the fault suite's stack shares the cores

        login(page, served, "admin", ADMIN_PASSWORD)
        pages = ["/", "/runs/", "/manage/targets/", "/manage/targets/add/", "/targets/demo/recommendations/",
                 "/tiers/", "/plans/", "/audit/", f"/admin/django_celery_beat/periodictask/{task_id}/change/"]
        for path in pages:
            page.goto(f"{served.url}{path}")
            assert_no_csp_violation(page, csp_violations)

        page.goto(f"{served.url}/targets/demo/")
        for canvas in ("chart-scatter", "chart-skew", "chart-cost", "chart-residency", "chart-flash"):
            assert_drawn(page, canvas)
        page.locator("#segments-table tbody tr a").first.click()
        page.wait_for_url(re.compile(r"/segments/\d+/$"))
        for canvas in ("chart-io", "chart-size", "chart-residency"):
            assert_drawn(page, canvas)
        assert_no_csp_violation(page, csp_violations)

        scripts = {path for path in answers if path.endswith(".js")}
        assert len(scripts) > 10, sorted(scripts)
        assert not [path for path in scripts if not HASHED.match(path)], "scripts served by their unhashed name"
        assert {status for status in answers.values()} <= {200, 304}, answers
        # The modules that pages reach only through an import came from their hashed copies too.
        for module in ("js/follow", "js/post", "js/charts/common"):
            assert any(re.match(rf"^/static/{module}\.[0-9a-f]{{12}}\.js$", path) for path in scripts), module
