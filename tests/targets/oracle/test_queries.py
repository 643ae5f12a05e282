"""The statement loader and row mapping of queries.py."""

from __future__ import annotations

import datetime as dt
import unittest

from oracledb import errors as oracledb_errors

from apps.targets.oracle import partitions, queries
from apps.targets.oracle.errors import StatementFailed
from apps.targets.oracle.features import Features

from .fakes import FakeCursor, load_recording

UTC = dt.timezone.utc


class LoaderTests(unittest.TestCase):
    def test_it_refuses_pack_statements_in_nopack_mode(self) -> None:
        for stem in ("pack_sysstat", "pack_filestat"):
            with self.subTest(stem=stem), self.assertRaises(queries.PackStatementRefused):
                queries.load_sql(stem, mode="nopack")

    def test_it_loads_pack_statements_in_awr_mode(self) -> None:
        self.assertIn("dba_hist_sysstat", queries.load_sql("pack_sysstat", mode="awr"))

    def test_it_loads_each_file_once(self) -> None:
        queries._read_sql.cache_clear()
        queries.load_sql("segments", mode="nopack")
        queries.load_sql("segments", mode="awr")
        self.assertEqual(queries._read_sql.cache_info().misses, 1)

    def test_it_rejects_names_that_are_not_statement_files(self) -> None:
        with self.assertRaisesRegex(ValueError, "not a sql/ file stem"):
            queries.load_sql("../secrets", mode="awr")
        with self.assertRaisesRegex(FileNotFoundError, "no_such"):
            queries.load_sql("no_such", mode="awr")

    def test_it_has_a_constant_and_fetch_function_per_statement(self) -> None:
        # The partition statements run together (apps.targets.oracle.partitions.fetch_partition_catalog).
        partition_nouns = {"part_tables", "part_key_columns", "tab_partition_bounds", "ind_partition_bounds",
                           "subpartitions"}
        nouns = {stem for stem in queries.statement_stems() if stem not in ("seg_stat_112",)} - partition_nouns
        for noun in partition_nouns:
            with self.subTest(noun=noun):
                self.assertEqual(getattr(partitions, f"SQL_{noun.upper()}").noun, noun)
        for noun in nouns:
            with self.subTest(noun=noun):
                self.assertIsInstance(getattr(queries, f"SQL_{noun.upper()}"), queries.Statement)
        for noun in nouns - {"residency_rac"}:
            with self.subTest(noun=noun):
                self.assertTrue(callable(getattr(queries, f"fetch_{noun}")))

    def test_it_lists_the_views_a_statement_reads(self) -> None:
        self.assertEqual(queries.views_read(queries.load_sql("seg_stat", mode="nopack")),
                         ("DBA_HIST_SEG_STAT", "DBA_HIST_SNAPSHOT", "DBA_HIST_SEG_STAT_OBJ"))


class MappingTests(unittest.TestCase):
    def test_it_converts_local_times_with_the_server_offset(self) -> None:
        self.assertEqual(queries.to_utc(dt.datetime(2024, 5, 6, 9, 0), 120), dt.datetime(2024, 5, 6, 7, tzinfo=UTC))
        self.assertEqual(queries.to_server_local(dt.datetime(2024, 5, 6, 7, tzinfo=UTC), -300),
                         dt.datetime(2024, 5, 6, 2, 0))
        with self.assertRaisesRegex(ValueError, "naive"):
            queries.to_server_local(dt.datetime(2024, 5, 6), 0)

    def test_it_maps_awr_object_types_to_segment_types(self) -> None:
        self.assertEqual(queries.segment_type_for("LOB", "SYS_LOB0000076543C00004$$"), "LOBSEGMENT")
        self.assertEqual(queries.segment_type_for("INDEX", "SYS_IL0000076543C00004$$"), "LOBINDEX")
        self.assertEqual(queries.segment_type_for("INDEX", "ORDERS_PK"), "INDEX")
        self.assertEqual(queries.segment_type_for("TABLE PARTITION", "ORDERS"), "TABLE PARTITION")

    def test_it_runs_the_11g_variant_with_bind_variables(self) -> None:
        recording = load_recording("single_nopack")
        recording["statements"]["seg_stat_112"] = recording["statements"]["seg_stat"]
        cursor = FakeCursor(recording)
        rows = queries.fetch_seg_stat(cursor, mode="nopack", features=Features(release=(11, 2)), dbid=987654321,
                                      last_snap_id=0, begin_at=dt.datetime(2024, 5, 13, 3, tzinfo=UTC),
                                      utc_offset_min=0)
        self.assertEqual(cursor.executed, [("seg_stat_112", {"dbid": 987654321, "last_snap_id": 0,
                                                             "begin_at": dt.datetime(2024, 5, 13, 3)})])
        self.assertEqual([(r.instance_number, r.snap_id, r.stat.physical_read_requests) for r in rows], [(1, 501, 720)])

    def test_it_wraps_driver_errors_with_the_statement(self) -> None:
        error = oracledb_errors._Error("ORA-00942: table or view does not exist", code=942)
        cursor = FakeCursor(load_recording("single_nopack"), failures={"segments": error.exc_type(error)})
        with self.assertRaises(StatementFailed) as raised:
            queries.fetch_segments(cursor, mode="nopack")
        self.assertEqual(raised.exception.statement, "segments")
        self.assertEqual(raised.exception.views, ("DBA_SEGMENTS", "DBA_OBJECTS", "DBA_LOBS", "DBA_LOB_PARTITIONS",
                                                  "DBA_TAB_PARTITIONS", "DBA_IND_PARTITIONS"))

    def test_it_refuses_an_instance_statement_without_exactly_one_row(self) -> None:
        recording = load_recording("single_nopack")
        recording["statements"]["instance"][0]["rows"] = []
        with self.assertRaisesRegex(ValueError, "0 rows"):
            queries.fetch_instance(FakeCursor(recording), mode="nopack")
