"""The browser tests' script-error watch (tests/browser.py) sees what breaks a page's scripts, and nothing else.

Each page is served by a route of its own, on an origin no server answers: no app, no database.
"""

from __future__ import annotations

import pytest

from tests.browser import watch_script_errors

pytestmark = pytest.mark.browser

ORIGIN = "http://probe.invalid"
FILES = {
    "/ok.js": 'import { twice } from "./lib.js"; document.body.dataset.ran = String(twice(2));',
    "/lib.js": "export function twice(n) { return 2 * n; }",
    "/throws.js": "document.body.dataset.ran = notDefinedAnywhere.value;",
    "/wrong_name.js": 'import { thrice } from "./lib.js"; thrice(1);',
    "/missing_import.js": 'import { gone } from "./gone.js"; gone();',
    "/page_as_module.js": None,  # answered with HTML: a module refused for its MIME type
}


def serve(route) -> None:
    path = route.request.url[len(ORIGIN):]
    if path.startswith("/page/"):
        script = path[len("/page"):]
        route.fulfill(content_type="text/html", body=f'<!doctype html><link rel="icon" href="data:,"><body>'
                                                     f'<script type="module" src="{script}"></script></body>')
    elif FILES.get(path) is not None:
        route.fulfill(content_type="text/javascript", body=FILES[path])
    elif path in FILES:
        route.fulfill(content_type="text/html", body="<!doctype html><p>not a script</p>")
    else:
        route.fulfill(status=404, content_type="text/plain", body="not found")


@pytest.fixture
def probe(browser):
    context = browser.new_context()
    page = context.new_page()
    page.route(f"{ORIGIN}/**", serve)
    yield page, watch_script_errors(page)
    context.close()


class ScriptErrorWatchTests:
    def test_a_page_whose_modules_run_has_no_script_error(self, probe):
        page, seen = probe
        page.goto(f"{ORIGIN}/page/ok.js")
        page.wait_for_function("() => document.body.dataset.ran === '4'")
        assert seen == []

    def test_an_uncaught_exception_is_a_script_error(self, probe):
        page, seen = probe
        with page.expect_event("pageerror"):
            page.goto(f"{ORIGIN}/page/throws.js")
        assert len(seen) == 1 and "notDefinedAnywhere" in seen[0]

    def test_importing_a_name_no_module_exports_is_a_script_error(self, probe):
        page, seen = probe
        with page.expect_event("pageerror"):
            page.goto(f"{ORIGIN}/page/wrong_name.js")
        assert len(seen) == 1 and "thrice" in seen[0]

    def test_an_import_that_does_not_load_is_a_script_error(self, probe):
        page, seen = probe
        with page.expect_console_message(lambda message: message.type == "error"):
            page.goto(f"{ORIGIN}/page/missing_import.js")
        assert len(seen) == 1 and seen[0].endswith(f"({ORIGIN}/gone.js)")

    def test_a_module_served_as_html_is_a_script_error(self, probe):
        page, seen = probe
        with page.expect_console_message(lambda message: message.type == "error"):
            page.goto(f"{ORIGIN}/page/page_as_module.js")
        assert len(seen) == 1 and "MIME type" in seen[0]
