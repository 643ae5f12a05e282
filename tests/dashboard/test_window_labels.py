"""Labels name the span the figures really cover: a single 22-hour report is not "P95, 7 d" (issue 15, item 11)."""

from __future__ import annotations

import re

import pytest

from apps.tiering.models import RecommendationRun
from tests.dashboard.report_target import REPORT_22H_SPAN, report_imported

pytestmark = pytest.mark.django_db


@pytest.fixture
def ppd(seed_tiers, django_capture_on_commit_callbacks):
    return report_imported(django_capture_on_commit_callbacks)


def iops_header(page: str) -> str:
    match = re.search(r'<th class="num" aria-sort="\w+"><a href="[^"]*sort=-?iops[^"]*">([^<]*)</a></th>', page)
    assert match, "no IOPS column header"
    return match[1]


class WindowLabelTests:
    def test_a_single_22_hour_report_is_labelled_as_one_22_hour_interval(self, viewer_client, ppd):
        for url in ("/targets/ppd/", "/targets/ppd/recommendations/"):
            page = viewer_client.get(url).content.decode()

            assert iops_header(page) == "IOPS (one 22 h interval)", url
            assert f"one snapshot interval of 22 h, {REPORT_22H_SPAN}" in page, url
            # The period picker offers "last 7 days" as a choice; no label may name the window so.
            labels = re.sub(r'<section class="card" id="period-picker">.*?</section>', "", page, flags=re.DOTALL)
            assert not re.search(r"\b7 ?d\b|P95, 7|7 days", labels, re.IGNORECASE), url

    def test_the_segment_page_names_it_too(self, viewer_client, ppd):
        from apps.tiering.models import Recommendation

        rec = Recommendation.objects.current(target_id=ppd.id).filter(measured=True).first()
        page = viewer_client.get(f"/targets/ppd/segments/{rec.segment_id}/").content.decode()

        label = re.search(r'<div class="kpi-label" id="kpi-iops-label" title="([^"]*)">([^<]*)</div>', page)
        assert label and label[2] == "IOPS (one 22 h interval)"
        assert label[1] == f"one snapshot interval of 22 h, {REPORT_22H_SPAN}"

    def test_the_scatter_and_flash_cards_name_the_same_window(self, viewer_client, ppd):
        page = viewer_client.get("/targets/ppd/").content.decode()

        assert "its IOPS (one 22 h interval) per GB" in page
        assert f"recommendations' window (one snapshot interval of 22 h, {REPORT_22H_SPAN})" in page

    def test_a_week_of_hourly_snapshots_is_labelled_p95_over_its_real_span(self, viewer_client, demo_target, collect):
        from apps.snapshots.selectors import window_coverage

        collect(demo_target)
        run = RecommendationRun.objects.get(target=demo_target, state="current")
        covered = window_coverage(target_id=demo_target.id, first_day=run.window_first_day,
                                  last_day=run.window_last_day, statistic=run.statistic)

        page = viewer_client.get("/targets/demo/").content.decode()

        assert covered.intervals > 24
        assert re.fullmatch(r"IOPS \(P95 over \d+(\.\d)? days\)", iops_header(page))
        assert iops_header(page) == f"IOPS ({covered.words})"
        assert f"P95 of {covered.intervals} snapshot intervals of 1 h, " in page
