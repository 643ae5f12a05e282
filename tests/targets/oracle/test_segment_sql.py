"""Which SQL drives a segment, read by the live source from recorded rows (awr: ASH; nopack: the cursor cache)."""

from __future__ import annotations

import datetime as dt
import unittest

from apps.targets.oracle import queries
from apps.targets.oracle.segment_sql import ash_attributed_reads, cursor_cache_segment_sql
from apps.targets.oracle.source import OracleSource
from apps.targets.rows import SQL_TEXT_CHARS

from .fakes import FakeConnect, load_recording
from .recorded_sources import RAC_DBID, rac_state, single_state, source

UTC = dt.timezone.utc


class AshSegmentSqlTests(unittest.TestCase):
    def setUp(self) -> None:
        self.source, self.connect = source("rac_awr", "awr")
        self.collection = self.source.collect(rac_state())
        self.rows = [r for r in self.collection.segment_sql if not r.recent]
        self.recent = [r for r in self.collection.segment_sql if r.recent]

    def test_it_bounds_ash_by_the_snapshots_it_collected(self) -> None:
        self.assertIn(("pack_ash_segment_sql", {"dbid": RAC_DBID, "after_snap_id": 100, "through_snap_id": 104,
                                                "top_sql": 5, "top_segments": 300}), self.connect.cursor.executed)
        first = self.rows[0]
        # Snapshot 101 began at 09:00 and 104 ended at 13:00 server time (UTC+2).
        self.assertEqual((first.begin_at, first.end_at), (dt.datetime(2024, 5, 6, 7, tzinfo=UTC),
                                                          dt.datetime(2024, 5, 6, 11, tzinfo=UTC)))

    def test_it_attributes_a_statements_reads_by_its_share_of_samples(self) -> None:
        scan = next(r for r in self.rows if r.obj_number == 76552 and r.sql_id == "7h35uxf5uhmm1")
        # 30 of its 40 IO-wait samples were on the segment: 3/4 of its 50,000 read requests.
        self.assertEqual((scan.source, scan.samples, scan.sample_s, scan.read_requests, scan.statement_read_requests),
                         ("ash", 30, 10.0, 37500, 50000))
        self.assertEqual((scan.executions, scan.elapsed_s), (1200, 900.0))
        self.assertEqual(self.collection.segment_sql_source, "ash")

    def test_it_reads_awrs_top_sql_by_the_objects_their_plans_read(self) -> None:
        self.assertIn(("pack_sqlstat_segments", {"dbid": RAC_DBID, "after_snap_id": 100, "through_snap_id": 104,
                                                 "top_statements": 200}), self.connect.cursor.executed)
        by_sql = {r.sql_id: r for r in self.rows if r.source == "sqlstat"}
        table, index = by_sql["7h35uxf5uhmm1"], by_sql["0w2qpuc6u2zsp"]
        self.assertEqual((table.object_name, table.read_requests, table.full_scan, table.samples),
                         ("ORDERS", 50000, True, None))
        # Its plan reads two objects: its reads are not put on either.
        self.assertEqual((index.read_requests, index.statement_read_requests, index.plan_objects), (None, 2400, 2))
        self.assertEqual(table.end_at, dt.datetime(2024, 5, 6, 11, tzinfo=UTC))

    def test_it_keeps_in_memory_samples_since_awr_apart(self) -> None:
        self.assertEqual([(r.sql_id, r.samples, r.sample_s, r.read_requests) for r in self.recent],
                         [("7h35uxf5uhmm1", 42, 1.0, None)])
        self.assertEqual((self.recent[0].begin_at, self.recent[0].end_at),
                         (dt.datetime(2024, 5, 6, 11, tzinfo=UTC), dt.datetime(2024, 5, 6, 11, 5, 51, tzinfo=UTC)))

    def test_it_reads_no_ash_when_no_snapshot_is_new(self) -> None:
        state = rac_state()
        state.last_snap_ids.update({(RAC_DBID, 1): 104, (RAC_DBID, 2): 104})
        recording = load_recording("rac_awr")
        recording["statements"]["snapshots"].append(
            {"binds": {"last_snap_id": 104}, "columns": ["DBID"], "rows": []})
        connect = FakeConnect(recording)
        OracleSource(dsn="db", user="u", password="p", mode="awr", connect=connect).collect(state)
        executed = [stem for stem, _binds in connect.cursor.executed]
        self.assertNotIn("pack_ash_segment_sql", executed)
        self.assertNotIn("pack_sqlstat_segments", executed)
        self.assertIn("pack_ash_recent_sql", executed)

    def test_it_says_unknown_when_ash_or_sqlstat_lack_a_figure(self) -> None:
        self.assertIsNone(ash_attributed_reads(read_requests=None, samples=3, sql_samples=4))
        self.assertIsNone(ash_attributed_reads(read_requests=100, samples=3, sql_samples=0))


class CursorCacheSegmentSqlTests(unittest.TestCase):
    def setUp(self) -> None:
        self.source, self.connect = source("single_nopack", "nopack")
        self.collection = self.source.collect(single_state())

    def test_it_reads_the_cursor_cache_and_no_pack_view(self) -> None:
        executed = [stem for stem, _binds in self.connect.cursor.executed]
        self.assertIn("sql_segments", executed)
        self.assertFalse([stem for stem in executed if queries.is_pack_statement(stem)])
        self.assertEqual(self.collection.segment_sql_source, "v$sql")

    def test_it_attributes_reads_only_to_a_plan_with_one_object(self) -> None:
        by_sql = {r.sql_id: r for r in self.collection.segment_sql}
        alone, shared = by_sql["9babjv8yq8ru3"], by_sql["5qgz1p0cut7mx"]
        self.assertEqual((alone.read_requests, alone.full_scan, alone.executions), (182000, True, 40))
        self.assertEqual((shared.read_requests, shared.statement_read_requests, shared.plan_objects),
                         (None, 91000, 2))
        self.assertEqual((alone.object_owner, alone.object_name, alone.source), ("SALES", "CUSTOMERS", "v$sql"))

    def test_it_covers_from_the_first_load_to_now(self) -> None:
        alone = next(r for r in self.collection.segment_sql if r.sql_id == "9babjv8yq8ru3")
        self.assertEqual((alone.begin_at, alone.end_at),
                         (dt.datetime(2024, 5, 20, 8, 15, 2, tzinfo=UTC), single_state().now))

    def test_it_cuts_the_text(self) -> None:
        row = cursor_cache_segment_sql({"OBJ_NUMBER": 1, "SQL_ID": "x", "SQL_TEXT": "S" * 3000},
                                       utc_offset_min=0, now=single_state().now)
        self.assertEqual(len(row.text), SQL_TEXT_CHARS)
        self.assertIsNone(row.executions)
