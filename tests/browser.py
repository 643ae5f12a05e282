"""What browser tests share: the CSP and script-error watches, login, screenshots and the check that a chart is drawn.

The fixtures (``page``, which fails a test whose pages broke the CSP or had a script error, ``csp_violations`` and
``collected``) are in tests/conftest.py.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent

#: Where browser tests write their screenshots: under .data/ (ignored), never into docs/. `make screenshots`
#: copies them into docs/screenshots/ when a person decides to publish them.
SHOTS = Path(os.environ.get("TIERSCOPE_STACK_DATA", ROOT / ".data")) / "screenshots"
PASSWORD = "ada-pass-1"  # tests/conftest.py admin_user

# Counts canvas pixels that are painted (alpha > 0) and not near-white.
PAINTED_JS = """(id) => {
  const c = document.getElementById(id);
  const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
  let n = 0;
  for (let i = 0; i < d.length; i += 4) {
    if (d[i + 3] > 0 && (d[i] < 235 || d[i + 1] < 235 || d[i + 2] < 235)) n++;
  }
  const chart = Chart.getChart(c);
  const points = chart ? chart.data.datasets.reduce((s, ds) => s + ds.data.filter(v => v !== null).length, 0) : 0;
  return {painted: n, total: c.width * c.height, points: points};
}"""


# Chromium reports a blocked inline script/style or source on the console ("Refused to ... because it violates
# the following Content Security Policy directive"); the init script also echoes every
# securitypolicyviolation event there, so a violation on any page of a test is seen whatever the page does.
CSP_LISTENER_JS = """document.addEventListener('securitypolicyviolation', (e) => {
  console.error(`CSP violation: ${e.violatedDirective} blocked ${e.blockedURI || 'inline'} at ${e.sourceFile}:${e.lineNumber}`);
});"""


def watch_csp(page) -> list[str]:
    """Start collecting every CSP violation of ``page`` (the list grows as the pages report them)."""
    seen: list[str] = []
    page.add_init_script(CSP_LISTENER_JS)
    page.on("console", lambda msg: seen.append(f"{page.url}: {msg.text}")
            if "Content Security Policy" in msg.text or "CSP violation" in msg.text else None)
    return seen


def is_script_load_error(message) -> bool:
    """A console message that says a script did not load: its request failed (a 404), or a module was refused
    (served with a MIME type that is not JavaScript)."""
    return message.type == "error" and (message.text.startswith("Failed to load module script")
                                        or urlsplit(message.location.get("url", "")).path.endswith(".js"))


def watch_script_errors(page) -> list[str]:
    """Start collecting the script errors of ``page``: uncaught exceptions (a module importing a name another does
    not export among them) and scripts that did not load. The list grows as the pages report them."""
    seen: list[str] = []
    page.on("pageerror", lambda error: seen.append(f"{page.url}: {error}"))
    page.on("console", lambda msg: seen.append(f"{page.url}: {msg.text} ({msg.location.get('url')})")
            if is_script_load_error(msg) else None)
    return seen


def assert_no_csp_violation(page, seen: list[str]) -> None:
    page.wait_for_load_state("load")
    assert page.evaluate("() => document.readyState") == "complete"
    assert not seen, seen


def shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def assert_drawn(page, canvas_id: str) -> None:
    result = page.evaluate(PAINTED_JS, canvas_id)
    assert result["points"] > 0, f"{canvas_id}: chart has no data points"
    assert result["painted"] > result["total"] * 0.01, f"{canvas_id}: canvas looks blank ({result})"


@contextmanager
def signed_in_page(browser, live_server, username: str) -> Iterator[Any]:
    """A page of a second browser context (another person's session) signed in as ``username``; closed after."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    try:
        page = context.new_page()
        login(page, live_server, username)
        yield page
    finally:
        context.close()


def plan_approve(page, live_server, plan_id: int) -> None:
    """Approve the plan from its page (the plan's next step, as its second admin)."""
    page.goto(f"{live_server.url}/plans/{plan_id}/")
    page.click("#plan-next")
    page.wait_for_url(re.compile(rf"/plans/{plan_id}/$"))


def login(page, live_server, username: str, password: str = PASSWORD) -> None:
    page.goto(f"{live_server.url}/")
    assert "/accounts/login/" in page.url  # anonymous users land on the login form
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click("button[type=submit]")
    page.wait_for_url(f"{live_server.url}/")
