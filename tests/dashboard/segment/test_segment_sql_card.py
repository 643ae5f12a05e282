"""The segment page's "SQL driving this segment" card."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from apps.snapshots.models import Segment, SegmentSql
from apps.targets.models import Target
from apps.tiering.models import Recommendation
from tests.dashboard.factories import build_target


def _url(target: Target, segment: Segment) -> str:
    return f"/targets/{target.name}/segments/{segment.id}/"


def _scan_row(target: Target, segment: Segment, *, reads: int, executions: int = 40) -> SegmentSql:
    now = timezone.now()
    return SegmentSql.objects.create(
        target=target, segment=segment, collected_at=now, source="ash", begin_at=now - dt.timedelta(days=1),
        end_at=now, sql_id="8fz2kq1m4d7xa", plan_hash_value=2470916634, samples=900, sample_s=10.0,
        read_requests=reads, statement_read_requests=reads, executions=executions, elapsed_s=4000.0, full_scan=True,
        text="SELECT o.order_id FROM soe.orders o WHERE o.order_status = :status")


@pytest.fixture
def small(seed_tiers):
    target = build_target(name="small", segments=2)
    target.capabilities = {**target.capabilities, "segment_sql": "ash"}
    target.save(update_fields=["capabilities"])
    return target


def _current(segment: Segment, *, reads_per_day: float, saved_s: float) -> Recommendation:
    rec = Recommendation.objects.get(segment=segment)
    today = timezone.now().date()
    run = rec.run
    run.window_first_day, run.window_last_day = today - dt.timedelta(days=6), today
    run.save()
    Recommendation.objects.filter(run=run, segment=segment).update(read_requests_per_day=reads_per_day,
                                                                   io_time_saved_s_per_day=saved_s)
    return rec


@pytest.mark.django_db
class SegmentSqlCardTests:
    def test_it_lists_the_statements_with_their_figures(self, viewer_client, small):
        segment = Segment.objects.filter(target=small).first()
        _scan_row(small, segment, reads=800_000)

        html = viewer_client.get(_url(small, segment)).content.decode()

        assert "SQL driving this segment" in html
        assert "8fz2kq1m4d7xa" in html and "full scan" in html and "800,000" in html
        assert "WHERE o.order_status = :status" in html

    def test_it_says_tune_before_moving_when_the_scan_costs_more_than_the_move_saves(self, viewer_client, small):
        segment = Segment.objects.filter(target=small).first()
        _current(segment, reads_per_day=1_000_000.0, saved_s=60.0)
        _scan_row(small, segment, reads=800_000)

        html = viewer_client.get(_url(small, segment)).content.decode()

        assert 'id="sql-tuning-note"' in html
        assert "SQL_ID 8fz2kq1m4d7xa full-scans" in html and "80% of its reads" in html

    def test_it_says_nothing_more_when_the_move_saves_more(self, viewer_client, small):
        segment = Segment.objects.filter(target=small).first()
        _current(segment, reads_per_day=1_000_000.0, saved_s=10_000_000.0)
        _scan_row(small, segment, reads=800_000)

        assert 'id="sql-tuning-note"' not in viewer_client.get(_url(small, segment)).content.decode()

    def test_it_says_why_no_statement_is_listed(self, viewer_client, small):
        segment = Segment.objects.filter(target=small).first()
        assert "No ASH sample waited on this segment" in viewer_client.get(_url(small, segment)).content.decode()

        small.capabilities = {**small.capabilities, "segment_sql": "v$sql"}
        small.save(update_fields=["capabilities"])
        assert "cursor cache&#x27;s top 200 statements" in viewer_client.get(_url(small, segment)).content.decode()

        small.capabilities = {key: value for key, value in small.capabilities.items() if key != "segment_sql"}
        small.mode = Target.Mode.REPORT
        small.save(update_fields=["capabilities", "mode"])
        assert "Not collected: an AWR report lists no SQL per segment" in viewer_client.get(
            _url(small, segment)).content.decode()
