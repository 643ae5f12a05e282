"""Storing the top SQL of each segment (apps.snapshots.sqlstats), against the real test database."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from apps.snapshots.models import Segment, SegmentSql
from apps.snapshots.sqlstats.selectors import segment_statements
from apps.snapshots.sqlstats.services import TOP_SQL_PER_SEGMENT, segment_sql_prune, segment_sql_store
from apps.targets.models import Target
from apps.targets.rows import Collection, DatabaseInfo
from apps.targets.rows import SegmentSql as Row

UTC = dt.timezone.utc
T0 = dt.datetime(2026, 11, 20, tzinfo=UTC)
HOUR = dt.timedelta(hours=1)


@pytest.fixture
def target(db):
    return Target.objects.create(name="prod", mode=Target.Mode.AWR, dsn="db:1521/PROD", username="t")


def _segment(target: Target, name: str, obj: int | None, sub: str = "", kind: str = "TABLE") -> Segment:
    now = timezone.now()
    return Segment.objects.create(target=target, owner="SOE", object_name=name, subobject_name=sub, object_type=kind,
                                  obj_number=obj, first_seen_at=now, last_seen_at=now)


def _row(sql_id: str, obj: int, *, samples: int = 10, begin=T0, end=T0 + HOUR, recent=False, source="ash",
         **fields) -> Row:
    return Row(obj_number=obj, sql_id=sql_id, source=source, begin_at=begin, end_at=end, samples=samples,
               sample_s=1.0 if recent else 10.0, recent=recent, **fields)


def _store(target: Target, rows, source: str | None = "ash") -> int:
    collection = Collection(database=DatabaseInfo(1, "PROD", "19.0.0.0.0", False, (1,)), segment_sql=tuple(rows),
                            segment_sql_source=source)
    return segment_sql_store(target=target, collection=collection, segment_ids={}, collected_at=T0 + 2 * HOUR)


@pytest.mark.django_db
class SegmentSqlStoreTests:
    def test_it_keeps_the_top_statements_of_each_segment_and_window(self, target):
        orders = _segment(target, "ORDERS", 100)
        _store(target, [_row(f"sql{n:02d}", 100, samples=n + 1) for n in range(8)])

        kept = list(SegmentSql.objects.filter(segment=orders).order_by("-samples").values_list("sql_id", flat=True))
        assert kept == ["sql07", "sql06", "sql05", "sql04", "sql03"][:TOP_SQL_PER_SEGMENT]

    def test_it_adds_nothing_when_stored_again(self, target):
        _segment(target, "ORDERS", 100)
        rows = [_row("a", 100), _row("b", 100)]
        _store(target, rows)
        _store(target, rows)

        assert SegmentSql.objects.filter(target=target).count() == 2

    def test_it_records_what_the_target_reads(self, target):
        _store(target, [], source="v$sql")
        target.refresh_from_db()
        assert target.capabilities["segment_sql"] == "v$sql"
        # A source that reads no SQL says nothing: "not collected" stays distinct from "none found".
        other = Target.objects.create(name="report", mode=Target.Mode.REPORT)
        _store(other, [_row("a", 100)], source=None)
        other.refresh_from_db()
        assert "segment_sql" not in other.capabilities and not SegmentSql.objects.filter(target=other).exists()

    def test_it_replaces_provisional_rows_once_awr_holds_their_time(self, target):
        orders = _segment(target, "ORDERS", 100)
        _store(target, [_row("a", 100, samples=40, begin=T0 + HOUR, end=T0 + HOUR + 20 * 60 * dt.timedelta(0, 1),
                             recent=True)])
        _store(target, [_row("a", 100, samples=6, begin=T0 + HOUR, end=T0 + 2 * HOUR)])

        rows = SegmentSql.objects.filter(segment=orders)
        assert [(r.recent, r.samples) for r in rows] == [(False, 6)]

    def test_it_gives_a_partitioned_tables_plan_to_its_partitions_without_reads(self, target):
        p1 = _segment(target, "ORDERS", 201, "P1", "TABLE PARTITION")
        p2 = _segment(target, "ORDERS", 202, "P2", "TABLE PARTITION")
        _store(target, [_row("scan", 200, source="v$sql", samples=None, object_owner="SOE", object_name="ORDERS",
                             read_requests=5000, statement_read_requests=5000)], source="v$sql")

        rows = SegmentSql.objects.filter(target=target).order_by("segment_id")
        assert [(r.segment_id, r.read_requests, r.statement_read_requests) for r in rows] == [
            (p1.id, None, 5000), (p2.id, None, 5000)]

    def test_it_refuses_an_unknown_source(self, target):
        _segment(target, "ORDERS", 100)
        with pytest.raises(ValueError, match="source 'awr' is not one of"):
            _store(target, [_row("a", 100, source="awr")])

    def test_it_prunes_with_the_raw_statistics(self, target):
        _segment(target, "ORDERS", 100)
        _store(target, [_row("old", 100, begin=T0 - dt.timedelta(days=40), end=T0 - dt.timedelta(days=40) + HOUR),
                        _row("new", 100)])

        assert segment_sql_prune(keep=dt.timedelta(days=35)) == 1
        assert list(SegmentSql.objects.values_list("sql_id", flat=True)) == ["new"]


@pytest.mark.django_db
class SegmentStatementsTests:
    def test_it_sums_ash_windows_and_spreads_them_over_the_time_ash_covered(self, target):
        orders, other = _segment(target, "ORDERS", 100), _segment(target, "CUSTOMERS", 101)
        # Two hourly windows: the statement ranked on ORDERS in the first only.
        _store(target, [_row("a", 100, samples=6, read_requests=600), _row("b", 101, samples=1)])
        _store(target, [_row("b", 101, samples=2, begin=T0 + HOUR, end=T0 + 2 * HOUR)])

        [statement] = segment_statements(target_id=target.id, segment_id=orders.id, since=T0, until=T0 + 2 * HOUR)
        assert (statement.samples, statement.db_time_s, statement.read_requests) == (6, 60.0, 600)
        assert statement.window_s == 7200.0
        assert other.id != orders.id

    def test_it_lists_a_statement_ash_caught_once(self, target):
        orders = _segment(target, "ORDERS", 100)
        _store(target, [_row("a", 100, samples=6, read_requests=600),
                        _row("a", 100, source="sqlstat", samples=None, read_requests=800,
                             begin=T0 + HOUR, end=T0 + 2 * HOUR),
                        _row("b", 100, source="sqlstat", samples=None, read_requests=90)])

        statements = segment_statements(target_id=target.id, segment_id=orders.id, since=T0, until=T0 + 2 * HOUR)
        assert [(s.sql_id, s.source, s.read_requests) for s in statements] == [("a", "ash", 600), ("b", "sqlstat", 90)]

    def test_it_reads_the_latest_cursor_cache_reading_only(self, target):
        orders = _segment(target, "ORDERS", 100)
        first = Collection(database=DatabaseInfo(1, "PROD", "19", False, (1,)), segment_sql_source="v$sql",
                           segment_sql=(_row("a", 100, source="v$sql", samples=None, read_requests=100,
                                             end=T0 + HOUR),))
        segment_sql_store(target=target, collection=first, segment_ids={}, collected_at=T0 + HOUR)
        later = Collection(database=first.database, segment_sql_source="v$sql",
                           segment_sql=(_row("a", 100, source="v$sql", samples=None, read_requests=150,
                                             end=T0 + 2 * HOUR),))
        segment_sql_store(target=target, collection=later, segment_ids={}, collected_at=T0 + 2 * HOUR)

        [statement] = segment_statements(target_id=target.id, segment_id=orders.id, since=T0 - HOUR,
                                         until=T0 + 3 * HOUR)
        assert (statement.read_requests, statement.samples, statement.db_time_s) == (150, None, None)


@pytest.mark.django_db
class DemoSegmentSqlTests:
    def test_it_stores_the_demo_statements_once(self, demo_target, collect):
        collect(demo_target)
        count = SegmentSql.objects.filter(target=demo_target).count()
        collect(demo_target)

        assert count > 0 and SegmentSql.objects.filter(target=demo_target).count() == count
        scans = SegmentSql.objects.filter(target=demo_target, sql_id="8fz2kq1m4d7xa", full_scan=True)
        assert scans.filter(segment__object_name="ORDERS").exists()
        demo_target.refresh_from_db()
        assert demo_target.capabilities["segment_sql"] == "ash"
