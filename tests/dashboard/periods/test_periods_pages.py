"""The period picker on the target, segment and recommendations pages, and the compare-two-periods page."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from apps.snapshots.models import Segment, SegmentStat, Snapshot
from apps.tiering.models import Recommendation
from tests.dashboard.factories import build_target

pytestmark = pytest.mark.django_db


@pytest.fixture
def big(seed_tiers):
    return build_target(name="big", segments=120)


def _iops(index: int, *, unit: bool = True) -> str:
    """The factory's figure of its segment ``index``: (100 + i reads + 10 + i writes) an hour, every hour."""
    from apps.dashboard.formatting import fmt_iops

    return fmt_iops((110 + 2 * index) / 3600, unit=unit)


class PeriodPickerTests:
    def test_the_target_page_shows_the_periods_figures_and_says_what_does_not_change(self, admin_client, big):
        seg = Segment.objects.get(target=big, object_name="OBJ7")
        rec = Recommendation.objects.get(segment=seg)

        page = admin_client.get("/targets/big/?period=24h&stat=avg&sort=name&per_page=200").content.decode()

        row = page[page.index(f'data-segment-id="{seg.id}"'):]
        row = row[:row.index("</tr>")]
        assert f'data-col="iops">{_iops(7, unit=False)}</td>' in row  # its unit in the column's header
        assert "IO figures for last 24 h" in page and "average" in page
        assert "recommended tiers and the money are the recommendations' own" in page
        assert str(rec.recommended_tier.name) in row  # the recommendation itself is kept

    def test_without_a_period_the_table_shows_the_recommendations_figures(self, admin_client, big):
        seg = Segment.objects.get(target=big, object_name="OBJ7")

        page = admin_client.get("/targets/big/?sort=name&per_page=200").content.decode()

        row = page[page.index(f'data-segment-id="{seg.id}"'):]
        from apps.dashboard.formatting import fmt_iops

        # the factory's stored run figure (i + 1), its unit in the column's header
        assert f'data-col="iops">{fmt_iops(8.0, unit=False)}</td>' in row[:row.index("</tr>")]
        assert 'id="period-banner"' not in page

    def test_a_period_with_no_snapshot_says_so_and_shows_nothing_as_zero(self, admin_client, big):
        day = (timezone.now() - dt.timedelta(days=20)).date()

        page = admin_client.get(f"/targets/big/recommendations/?period=custom&from={day}&to={day}").content.decode()

        assert 'id="period-empty"' in page
        table = page[page.index('id="segments-table"'):]
        cells = re.findall(r'data-col="(?:iops|intensity)">([^<]*)</td>', table)
        assert cells and all(cell.startswith("not measured") for cell in cells), cells

    def test_a_bad_range_gets_a_message_and_the_recommendations_window(self, admin_client, big):
        response = admin_client.get("/targets/big/?period=custom&from=2026-11-14&to=2026-11-01")

        assert response.status_code == 200
        page = response.content.decode()
        assert 'id="period-error"' in page and "before its From" in page
        assert 'id="period-banner"' not in page

    def test_the_target_pages_scatter_and_skew_show_the_periods_io(self, admin_client, big):
        import json

        page = admin_client.get("/targets/big/?period=24h&stat=avg").content.decode()

        scatter = json.loads(page.split('<script id="data-scatter" type="application/json">')[1].split("</script>")[0])
        points = {p["id"]: p["iops"] for series in scatter["series"] for p in series["points"]}
        names = dict(Segment.objects.filter(target=big).values_list("id", "object_name"))
        assert points and all(iops == pytest.approx((110 + 2 * int(names[pk][3:])) / 3600) for pk, iops in points.items())
        assert "IO skew charts and the skew KPI show the period's whole days" in page

    def test_segments_not_measured_in_the_period_are_left_out_of_the_charts_not_drawn_at_zero(self, admin_client,
                                                                                                 big):
        import json

        day = (timezone.now() - dt.timedelta(days=20)).date()
        page = admin_client.get(f"/targets/big/?period=custom&from={day}&to={day}").content.decode()

        scatter = json.loads(page.split('<script id="data-scatter" type="application/json">')[1].split("</script>")[0])
        assert scatter["plotted"] == 0 and scatter["omitted"] == 120
        assert 'id="skew-callout"' not in page

    def test_the_segment_page_shows_its_figures_and_chart_over_the_period(self, admin_client, big):
        seg = Segment.objects.get(target=big, object_name="OBJ3")

        page = admin_client.get(f"/targets/big/segments/{seg.id}/?period=24h&stat=p95").content.decode()

        assert 'id="period-segment"' in page and _iops(3) in page
        stored = SegmentStat.objects.filter(segment=seg).count()
        assert f"Per-snapshot numbers ({stored} snapshots)" in page

    def test_the_page_reads_its_rows_only_whatever_their_number(self, admin_client, big, monkeypatch):
        from apps.snapshots import windows

        asked, raw = [], windows.raw_figures
        monkeypatch.setattr(windows, "raw_figures", lambda *a, **kw: asked.append(kw["segment_ids"]) or raw(*a, **kw))
        admin_client.get("/targets/big/recommendations/?period=7d")  # the first request's one-off reads
        asked.clear()
        counts = []
        for size in (25, 100):
            with CaptureQueriesContext(connection) as queries:
                assert admin_client.get(f"/targets/big/recommendations/?period=7d&per_page={size}").status_code == 200
            counts.append(len(queries))

        assert counts[0] == counts[1]
        assert [len(ids) for ids in asked] == [25, 100]


class ComparePeriodsTests:
    def _shift_half(self, target, days: int) -> None:
        """Move the first half of the target's snapshots ``days`` back (period A), doubling OBJ1's IO in B."""
        snaps = list(Snapshot.objects.filter(target=target).order_by("end_at"))
        for snap in snaps[:3]:
            delta = dt.timedelta(days=days)
            Snapshot.objects.filter(pk=snap.pk).update(begin_at=snap.begin_at - delta, end_at=snap.end_at - delta)
            SegmentStat.objects.filter(snapshot=snap).update(end_at=snap.end_at - delta)
        later = [s.pk for s in snaps[3:]]
        seg1 = Segment.objects.get(target=target, object_name="OBJ1")
        SegmentStat.objects.filter(snapshot_id__in=later, segment=seg1).update(physical_read_requests=1000)
        seg2 = Segment.objects.get(target=target, object_name="OBJ2")
        SegmentStat.objects.filter(snapshot_id__in=later, segment=seg2).delete()

    def test_it_lists_the_largest_change_first_and_says_gone(self, admin_client, big):
        self._shift_half(big, 8)
        last = timezone.now().astimezone(dt.timezone.utc).date()
        a = last - dt.timedelta(days=8)
        seg1, seg2 = (Segment.objects.get(target=big, object_name=name).id for name in ("OBJ1", "OBJ2"))

        page = admin_client.get(f"/targets/big/compare/?a_from={a - dt.timedelta(days=1)}&a_to={a}"
                                f"&b_from={last - dt.timedelta(days=1)}&b_to={last}&stat=avg").content.decode()

        rows = [(int(part.split('"')[0]), part.split('data-status="')[1].split('"')[0])
                for part in page.split('<tr data-segment-id="')[1:]]
        assert rows[:2] == [(seg1, "both"), (seg2, "gone")]  # +0.25 IO/s, then -0.03 IO/s (its all)
        assert {status for _, status in rows[2:]} == {"both"}
        gone = page[page.index(f'<tr data-segment-id="{seg2}"'):]
        assert ">gone<" in gone[:gone.index("</tr>")] and "%" not in gone[:gone.index("</tr>")]


    def test_the_defaults_are_the_last_7_days_against_the_7_before(self, admin_client, big):
        page = admin_client.get("/targets/big/compare/").content.decode()

        # The last day statistics were stored (UTC): yesterday's until the first hour of a day has a snapshot.
        last = Snapshot.objects.filter(target=big).latest("end_at").end_at.astimezone(dt.timezone.utc).date()
        assert f'name="b_to" value="{last}"' in page and f'name="a_to" value="{last - dt.timedelta(days=7)}"' in page
        assert 'id="a-empty"' in page  # nothing stored that far back: said, not shown as zero

    def test_a_reversed_period_gets_a_message_and_the_defaults(self, admin_client, big):
        response = admin_client.get("/targets/big/compare/?a_from=2026-11-10&a_to=2026-11-01")

        assert response.status_code == 200
        assert 'id="compare-error"' in response.content.decode()

    def test_the_name_filter_keeps_the_matching_segments(self, admin_client, big):
        page = admin_client.get("/targets/big/compare/?q=OBJ11").content.decode()

        names = {Segment.objects.get(pk=pk).object_name for pk in
                 (int(part.split('"')[0]) for part in page.split('data-segment-id="')[1:])}
        assert names == {"OBJ11"} | {f"OBJ11{n}" for n in range(10)}

    def test_it_is_linked_from_the_target_page(self, admin_client, big):
        assert 'href="/targets/big/compare/"' in admin_client.get("/targets/big/").content.decode()
