"""A target page with nothing to show says why and what to do next: a report target without sizes names the
upload, charts without data are one line instead of empty axes, and a target never collected shows no
collection interval."""

from __future__ import annotations

import re

import pytest

from tests.dashboard.report_target import report_imported

pytestmark = pytest.mark.django_db


@pytest.fixture
def ppd(seed_tiers, django_capture_on_commit_callbacks):
    """A report target from one AWR report and no sizes listing: every segment's size unknown."""
    return report_imported(django_capture_on_commit_callbacks)


def _text(page: str, element_id: str) -> str:
    match = re.search(rf'id="{element_id}"[^>]*>(.*?)</p>', page, re.S)
    assert match, f"no #{element_id}"
    return re.sub(r"<[^>]+>", "", match[1])


class ReportWithoutSizesTests:
    def test_it_says_to_upload_the_sizes_with_the_command(self, viewer_client, ppd):
        page = viewer_client.get("/targets/ppd/").content.decode()

        text = _text(page, "sizes-missing")
        assert text.startswith("No segment has a size yet")
        assert "manage.py import_awr_report REPORT.html --target ppd --sizes segments.csv" in text
        assert "segments.csv" in text and "DBA_SEGMENTS" in text
        assert 'href="/targets/ppd/import/"' in page.split('id="sizes-missing"', 1)[1].split("</p>", 1)[0]

    def test_doing_what_it_says_prices_the_segments_and_the_note_goes(self, viewer_client, ppd,
                                                                      django_capture_on_commit_callbacks):
        from apps.snapshots.imports import report_import
        from apps.snapshots.models import Segment
        from tests.dashboard.report_target import REPORT_22H, SAMPLES
        from tests.snapshots.import_files import sizes_csv

        rows = [(s.owner, s.object_name, s.subobject_name, s.object_type, s.tablespace_name or "USERS", 64 * 1024**2)
                for s in Segment.objects.filter(target=ppd)]
        with django_capture_on_commit_callbacks(execute=True):  # the same report again, with the sizes
            report_import(target=ppd, data=(SAMPLES / REPORT_22H).read_bytes(), filename=REPORT_22H,
                          sizes=sizes_csv(*rows))

        page = viewer_client.get("/targets/ppd/").content.decode()
        assert not Segment.objects.filter(target=ppd, size_bytes__isnull=True).exists()
        assert 'id="sizes-missing"' not in page and 'id="scatter-empty"' not in page

    def test_its_charts_are_one_line_each_saying_why(self, viewer_client, ppd):
        page = viewer_client.get("/targets/ppd/").content.decode()

        for canvas in ("chart-scatter", "chart-skew", "chart-cost", "chart-residency", "chart-flash"):
            assert f'id="{canvas}"' not in page, canvas  # no empty axes
        assert "no segment has a size yet" in _text(page, "scatter-empty")
        assert "upload the sizes" in _text(page, "skew-empty")
        assert "no segment has a size" in _text(page, "cost-empty")
        assert "DB_FLASH_CACHE_FILE" in _text(page, "flash-empty")
        assert "V$BH" in _text(page, "residency-empty")

    def test_it_shows_no_collection_interval(self, viewer_client, ppd):
        for url in ("/targets/ppd/", "/targets/ppd/recommendations/"):
            page = viewer_client.get(url).content.decode()

            assert 'id="head-interval"' not in page, url
            facts = page.split('<dl class="facts">', 1)[1].split("</dl>", 1)[0]
            assert "Interval" not in facts and " min</dd>" not in facts, url

    def test_a_sized_live_target_shows_its_interval_and_charts_and_no_upload_note(self, viewer_client, demo_target,
                                                                                    collect):
        collect(demo_target)
        page = viewer_client.get("/targets/demo/").content.decode()

        assert "every 60 min" in _dd(page, "head-interval")
        assert 'id="sizes-missing"' not in page
        for canvas in ("chart-scatter", "chart-skew", "chart-cost", "chart-flash"):
            assert f'id="{canvas}"' in page, canvas


def _dd(page: str, element_id: str) -> str:
    match = re.search(rf'id="{element_id}"><dt>[^<]*</dt><dd>([^<]*)</dd>', page)
    assert match, f"no #{element_id}"
    return match[1]
