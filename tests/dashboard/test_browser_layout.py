"""Every page fits a laptop (1366×768) and a desktop (1920×1080) screen: nothing is wider than its card unless it
scrolls inside a .table-responsive, the page never scrolls sideways, identifiers end in an ellipsis (whole in
title) rather than break, badges stay on one line, sortable headers show a marker, and a plan's DDL is whole.

Screenshots: the screenshots (`make screenshots` publishes them in docs/screenshots/)layout-<page>-<width>.png."""

from __future__ import annotations

import re

import pytest

from tests.browser import SHOTS, assert_no_csp_violation, login

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = ((1366, 768), (1920, 1080))
SHOT_MAX_HEIGHT = 2200  # the screenshots show the top of long pages (a plan of 200 steps is 7,000 px)

# What does not fit: the page scrolling sideways, a card wider inside than its box (a .table-responsive scrolls
# on its own and clips its table, so it never widens its card), an element poking out of its card, a cell's
# text running into the next one, an identifier on two lines, a badge on two lines.
LAYOUT_JS = """() => {
  const bad = [];
  const root = document.documentElement;
  if (root.scrollWidth > window.innerWidth) bad.push(`page scrolls sideways: ${root.scrollWidth} > ${window.innerWidth}`);
  const name = (el) => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + (el.className && typeof el.className === 'string' ? '.' + el.className.trim().split(/\\s+/).join('.') : '');
  document.querySelectorAll('.card').forEach((card) => {
    const label = name(card) + ' "' + ((card.querySelector('h2') || {}).textContent || '').trim() + '"';
    if (card.scrollWidth > card.clientWidth) bad.push(`${label}: scrollWidth ${card.scrollWidth} > clientWidth ${card.clientWidth}`);
    const box = card.getBoundingClientRect();
    card.querySelectorAll('*').forEach((el) => {
      const scroller = el.parentElement && el.parentElement.closest('.table-responsive');
      if (scroller && card.contains(scroller)) return;  // scrolls inside its card
      const r = el.getBoundingClientRect();
      if (r.width === 0 || getComputedStyle(el).position === 'absolute') return;
      if (r.right > box.right + 1 || r.left < box.left - 1) bad.push(`${label}: ${name(el)} spans ${Math.round(r.left)}..${Math.round(r.right)} outside ${Math.round(box.left)}..${Math.round(box.right)}`);
    });
  });
  document.querySelectorAll('.ident').forEach((el) => {
    const line = parseFloat(getComputedStyle(el).lineHeight) || 20;
    if (el.getBoundingClientRect().height > line * 1.5) bad.push(`identifier on two lines: ${el.textContent}`);
    if (el.title && el.title !== el.textContent.trim()) bad.push(`identifier title ${el.title} is not its text ${el.textContent}`);
  });
  const range = document.createRange();
  document.querySelectorAll('main td, main th').forEach((cell) => {  // text running over into the next column
    if (getComputedStyle(cell).textOverflow === 'ellipsis' || cell.querySelector('.ident')) return;  // cut on purpose
    range.selectNodeContents(cell);
    const text = range.getBoundingClientRect(), box = cell.getBoundingClientRect();
    if (text.width && text.right > box.right + 1) bad.push(`cell overflows: ${cell.textContent.trim().slice(0, 60)}`);
  });
  document.querySelectorAll('.action, .status').forEach((el) => {
    const line = parseFloat(getComputedStyle(el).lineHeight) || 18;
    if (el.getBoundingClientRect().height > line * 1.7) bad.push(`badge on two lines: ${el.textContent}`);
  });
  return bad;
}"""

# Every chart on the page has painted and finished its opening animation (Chart.animator).
DRAWN_JS = """() => Array.from(document.querySelectorAll('canvas')).every((c) => {
  const chart = window.Chart && Chart.getChart(c);
  if (!chart) return false;
  const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
  let n = 0;
  for (let i = 3; i < d.length; i += 16) if (d[i] > 0) n++;
  return n > d.length / 16 * 0.01 && !Chart.animator.running(chart);
})"""

# The marker CSS draws after each sortable header: ▲/▼ on the active sort, ⇅ on the others.
# Each header by its label (a sorting header's link, without the unit line under it) and its marker.
MARKERS_JS = """(selector) => Array.from(document.querySelectorAll(selector)).map((th) => [
  (th.querySelector('a') || th).textContent.trim(), getComputedStyle(th, '::after').content])"""


def fits(page, live_server, path: str, name: str, csp_violations) -> None:
    """``path`` at both sizes: laid out to fit, and a screenshot of each."""
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.goto(f"{live_server.url}{path}")
        assert_no_csp_violation(page, csp_violations)
        page.wait_for_function("() => document.fonts.status === 'loaded'")
        page.wait_for_function(DRAWN_JS)  # charts painted before the screenshot
        problems = page.evaluate(LAYOUT_JS)
        assert not problems, f"{path} at {width}×{height}: {problems[:8]}"
        shot_height = min(page.evaluate("() => document.documentElement.scrollHeight"), SHOT_MAX_HEIGHT)
        page.screenshot(path=str(SHOTS / f"layout-{name}-{width}.png"), full_page=True,
                        clip={"x": 0, "y": 0, "width": width, "height": shot_height})


@pytest.fixture
def signed_in(page, live_server, admin_user):
    login(page, live_server, admin_user.username)
    return page


def _top_segment_id(target) -> int:
    from apps.tiering.models import Recommendation

    return Recommendation.objects.current(target_id=target.id).counted().order_by("-savings_usd").first().segment_id


class LayoutBrowserTests:
    def test_the_target_page_fits_and_leads_with_its_summary_and_top_moves(
            self, signed_in, live_server, collected, csp_violations):
        page = signed_in
        fits(page, live_server, "/targets/demo/", "target", csp_violations)

        # Summary, then the segment table, then the charts.
        order = page.evaluate("""() => ['.kpis', '#segments', '#chart-scatter', '#storage-map'].map(
            (s) => document.querySelector(s).getBoundingClientRect().top + window.scrollY)""")
        assert order == sorted(order), order
        # The head's actions on one row: every button's top within a few pixels of the first's.
        tops = page.evaluate("""() => Array.from(document.querySelectorAll('#head-actions > *')).map(
            (el) => el.getBoundingClientRect().top)""")
        assert len(tops) >= 3 and max(tops) - min(tops) < 8, tops
        page.click("#head-more summary")
        assert page.locator("#head-more .menu a", has_text="Runs").is_visible()
        # Sort markers: the table is sorted by savings, descending; the other sortable headers are neutral.
        markers = dict(page.evaluate(MARKERS_JS, "#segments-table th[aria-sort]"))
        assert markers["Savings"] == '" ▼"', markers
        assert markers["Size"] == '" ⇅"' and markers["IO intensity"] == '" ⇅"', markers
        # A long name ends in an ellipsis, its whole text in title; a partition's name on a line of its own.
        first = page.locator("#segments-table tbody tr a.seg-name").first
        assert first.get_attribute("title") == ".".join(first.inner_text().split("\n"))
        assert first.locator(".ident").first.evaluate("(el) => getComputedStyle(el).textOverflow") == "ellipsis"

    def test_the_storage_map_card_fits(self, signed_in, live_server, collected, csp_violations):
        page = signed_in
        for width, height in SIZES:
            page.set_viewport_size({"width": width, "height": height})
            page.goto(f"{live_server.url}/targets/demo/#storage-map")
            problems = page.evaluate(LAYOUT_JS)
            assert not problems, f"storage map at {width}×{height}: {problems[:8]}"
            page.locator("#storage-map").screenshot(path=str(SHOTS / f"layout-storage-map-{width}.png"))

    def test_the_recommendations_page_fits(self, signed_in, live_server, collected, csp_violations):
        page = signed_in
        fits(page, live_server, "/targets/demo/recommendations/?sort=name", "recommendations", csp_violations)
        markers = dict(page.evaluate(MARKERS_JS, "#segments-table th[aria-sort]"))
        assert markers["Segment"] == '" ▲"' and markers["Savings"] == '" ⇅"', markers

    def test_the_recommendations_tell_a_table_s_partitions_apart_on_a_laptop(
            self, signed_in, live_server, collected, csp_violations):
        page = signed_in
        page.set_viewport_size({"width": SIZES[0][0], "height": SIZES[0][1]})
        page.goto(f"{live_server.url}/targets/demo/recommendations/?sort=name&per_page=200")
        # Each part of a (sub)partition's name the cell shows is whole: no two partitions of a table read alike.
        rows, cut = page.evaluate("""() => {
          const rows = Array.from(document.querySelectorAll('#segments-table tbody tr'))
            .filter((row) => row.cells[1].textContent.includes('PARTITION'));
          return [rows.length, rows.flatMap((row) => Array.from(row.cells[0].querySelectorAll('.ident'))
            .filter((el) => el.scrollWidth > el.clientWidth).map((el) => el.textContent))];
        }""")
        assert rows > 10 and not cut, f"{len(cut)} of {rows} partition names cut: {cut[:4]}"

    def test_the_segment_page_fits(self, signed_in, live_server, collected, csp_violations):
        fits(signed_in, live_server, f"/targets/demo/segments/{_top_segment_id(collected)}/", "segment",
             csp_violations)

    def test_the_plan_page_fits_and_shows_each_step_s_ddl_whole(
            self, signed_in, live_server, admin_user, collected, csp_violations):
        from apps.tiering.plans.services import plan_create

        plan = plan_create(target=collected, author=admin_user, author_name="ada", all_worth_moving=True)
        page = signed_in
        fits(page, live_server, f"/plans/{plan.pk}/", "plan", csp_violations)

        steps = page.locator("#steps-table tbody tr[data-step]").count()
        assert steps > 0 and page.locator("#steps-table tr.ddl-row pre").count() == steps
        # Each DDL inside its card's visible width, not cut by the table's scroll, and not clipped itself.
        cut = page.evaluate("""() => {
          const card = document.getElementById('steps-table').closest('.card').getBoundingClientRect();
          return Array.from(document.querySelectorAll('#steps-table pre.plan-ddl')).filter((pre) => {
            const r = pre.getBoundingClientRect();
            return r.right > card.right || pre.scrollWidth > pre.clientWidth;
          }).map((pre) => pre.textContent.slice(0, 60));
        }""")
        assert not cut, cut

    def test_the_fleet_page_fits(self, signed_in, live_server, collected, csp_violations):
        page = signed_in
        fits(page, live_server, "/", "fleet", csp_violations)
        assert re.fullmatch(r"just now|\d+ min ago", page.locator("#fleet-table tr[data-target=demo] "
                                                                   "[data-col=last_collected]").inner_text())
        markers = dict(page.evaluate(MARKERS_JS, "#fleet-table th.clickable"))
        assert markers["Savings"] == '" ⇅"', markers  # client-side sort: neutral until clicked
        page.locator("#fleet-table th", has_text="Savings").click()
        assert dict(page.evaluate(MARKERS_JS, "#fleet-table th.clickable"))["Savings"] == '" ▼"'

    def test_the_budget_card_fits(self, signed_in, live_server, collected, csp_violations):
        fits(signed_in, live_server, "/?budget_tier=flash&budget_amount=5&budget_unit=gb#budget", "budget",
             csp_violations)

    def test_the_search_page_fits(self, signed_in, live_server, collected, csp_violations):
        page = signed_in
        fits(page, live_server, "/search/?q=ORDER", "search", csp_violations)
        assert page.locator("main table tbody tr").count() > 0

    def test_the_audit_page_fits(self, signed_in, live_server, collected, csp_violations):
        from apps.tiering.models import Tier

        tier = Tier.objects.filter(kind=Tier.Kind.DEVICE).order_by("pk").first()
        tier.device_cost_usd = 12345
        tier.save()
        page = signed_in
        fits(page, live_server, "/audit/", "audit", csp_violations)
        assert page.locator("#audit-table tbody tr").count() > 0
