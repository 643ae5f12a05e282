"""OracleSource against recorded rows (fake connection): RAC awr, single-instance nopack."""

from __future__ import annotations

import datetime as dt
import json
import unittest
from unittest import mock

from oracledb import errors as oracledb_errors

from apps.targets.base import CollectState, SourceError
from apps.targets.oracle import queries
from apps.targets.oracle.source import OracleSource

from .fakes import FakeConnect, load_recording
from .recorded_sources import RAC_DBID, SINGLE_DBID, rac_state, single_state, source

UTC = dt.timezone.utc


class RacAwrCollectionTests(unittest.TestCase):
    def setUp(self) -> None:
        self.source, self.connect = source("rac_awr", "awr")
        self.collection = self.source.collect(rac_state())
        self.snapshots = {(s.instance_number, s.snap_id): s for s in self.collection.snapshots}

    def test_it_describes_the_database(self) -> None:
        db = self.collection.database
        self.assertEqual((db.dbid, db.db_name, db.release, db.is_rac, db.instances),
                         (RAC_DBID, "PROD", "19.0.0.0.0", True, (1, 2)))
        self.assertEqual((db.block_size_bytes, db.pack_access), (8192, "DIAGNOSTIC+TUNING"))

    def test_it_reads_only_snapshots_newer_than_stored(self) -> None:
        self.assertEqual(sorted(self.snapshots), [(1, 101), (1, 102), (1, 104), (2, 101), (2, 102), (2, 103), (2, 104)])
        self.assertIn(("snapshots", {"dbid": RAC_DBID, "last_snap_id": 100,
                                     "begin_at": dt.datetime(2024, 4, 28, 2, 0)}), self.connect.cursor.executed)

    def test_it_converts_server_local_times_to_utc(self) -> None:
        snap = self.snapshots[(1, 101)]
        self.assertEqual((snap.begin_at, snap.end_at), (dt.datetime(2024, 5, 6, 7, tzinfo=UTC),
                                                         dt.datetime(2024, 5, 6, 8, tzinfo=UTC)))
        self.assertEqual(self.snapshots[(2, 102)].startup_at, dt.datetime(2024, 5, 6, 8, 30, tzinfo=UTC))

    def test_it_puts_awr_segment_deltas_into_their_snapshot(self) -> None:
        snap = self.snapshots[(1, 101)]
        self.assertTrue(snap.top_n_only)
        by_key = {stat.key.object_name: stat for stat in snap.segment_stats}
        lines = by_key["OrderLines"]
        self.assertEqual((lines.key.owner, lines.physical_read_requests, lines.physical_write_requests,
                          lines.physical_reads_blocks, lines.space_allocated_bytes), ("App", 3600, 720, 7200, 104857600))
        self.assertEqual(by_key["ORDERS"].key.subobject_name, "P2024_05")
        self.assertEqual(by_key["SYS_LOB0000076543C00004$$"].key.object_type, "LOBSEGMENT")
        lob_index = self.snapshots[(2, 103)].segment_stats[1]
        self.assertEqual(lob_index.key.object_type, "LOBINDEX")

    def test_it_computes_sysstat_deltas_within_one_startup(self) -> None:
        stats = {s.name: s.value for s in self.snapshots[(1, 101)].sysstats}
        self.assertEqual(stats, {"flash cache inserts": 1200, "physical read IO requests": 36000})
        self.assertEqual({s.name: s.value for s in self.snapshots[(2, 103)].sysstats},
                         {"flash cache inserts": 600, "physical read IO requests": 18000})

    def test_it_never_differences_across_the_restart(self) -> None:
        self.assertEqual(self.snapshots[(2, 102)].sysstats, ())
        self.assertEqual(self.snapshots[(2, 102)].tablespace_io, ())

    def test_it_gives_no_deltas_after_the_awr_gap(self) -> None:
        self.assertEqual(self.snapshots[(1, 104)].sysstats, ())
        self.assertEqual(len(self.snapshots[(1, 104)].segment_stats), 1)  # DELTA columns need no baseline

    def test_it_reports_gaps_and_restarts(self) -> None:
        self.assertIn("AWR gap on instance 1: snapshot 103 missing", self.collection.notes)
        self.assertTrue(any(note.startswith("instance 2 restarted at 2024-05-06T08:30:00+00:00")
                            for note in self.collection.notes))

    def test_it_computes_tablespace_io_deltas(self) -> None:
        io = {t.tablespace_name: t for t in self.snapshots[(1, 101)].tablespace_io}
        self.assertEqual((io["USERS"].read_requests, io["USERS"].write_requests, io["USERS"].read_time_ms),
                         (18000, 6000, 90000.0))

    def test_it_lists_segments_with_parents_lobs_and_hints(self) -> None:
        segments = {(s.key.object_name, s.key.subobject_name): s for s in self.collection.segments}
        partition = segments[("ORDERS", "P2024_05")]
        self.assertEqual((partition.partitioned_parent, partition.obj_number, partition.dataobj_number,
                          partition.flash_cache, partition.cell_flash_cache), ("ORDERS", 76552, 76560, "KEEP", "KEEP"))
        self.assertIsNone(partition.table_partition_name)
        lob = segments[("SYS_LOB0000076543C00004$$", "")]
        self.assertEqual((lob.key.object_type, lob.partitioned_parent, lob.lob_column, lob.flash_cache),
                         ("LOBSEGMENT", "DOCS", "BODY", "NONE"))
        lob_index = segments[("SYS_IL0000076543C00004$$", "")]
        self.assertEqual((lob_index.key.object_type, lob_index.partitioned_parent), ("LOBINDEX", "DOCS"))
        lob_partition = segments[("SYS_LOB0000076600C00003$$", "SYS_LOB_P101")]
        self.assertEqual((lob_partition.partitioned_parent, lob_partition.lob_column, lob_partition.table_partition_name),
                         ("INVOICES", "PDF", "P2024_01"))
        self.assertIsNone(segments[("ORDERS_PK", "")].partitioned_parent)
        self.assertEqual(segments[("OrderLines", "")].key.owner, "App")
        self.assertIsNone(segments[("_SYSSMU1_3780397527$", "")].obj_number)

    def test_it_reads_a_partitions_position_and_interval_flag(self) -> None:
        segments = {(s.key.object_name, s.key.subobject_name): s for s in self.collection.segments}
        self.assertEqual([(segments[("ORDERS", name)].partition_position, segments[("ORDERS", name)].partition_interval)
                          for name in ("P2024_04", "P2024_05")], [(4, False), (5, False)])
        # Not a table or index partition: neither is said.
        self.assertEqual((segments[("ORDERS_PK", "")].partition_position, segments[("ORDERS_PK", "")].partition_interval),
                         (None, None))

    def test_it_reads_each_partitions_partitioning_bound_and_order_by_bound(self) -> None:
        segments = {(s.key.object_name, s.key.subobject_name): s for s in self.collection.segments}
        orders = [segments[("ORDERS", name)] for name in ("P2024_04", "P2024_05")]
        self.assertEqual([(p.partitioning, p.partition_order) for p in orders],
                         [("RANGE(ORDER_DATE)", 1), ("RANGE(ORDER_DATE)", 2)])
        self.assertIn("2024-06-01", orders[1].partition_bound)
        # A LOB partition is placed by its table's partitioning, at its table partition.
        lob_partition = segments[("SYS_LOB0000076600C00003$$", "SYS_LOB_P101")]
        self.assertEqual((lob_partition.partitioning, lob_partition.partition_order), ("RANGE", 1))
        self.assertIsNone(segments[("ORDERS_PK", "")].partitioning)

    def test_it_reads_residency_per_instance_from_gv_bh(self) -> None:
        self.assertIn("residency_rac", [stem for stem, _binds in self.connect.cursor.executed])
        self.assertEqual({(r.instance_number, r.dataobj_number, r.flash_blocks, r.cache_blocks)
                          for r in self.collection.residency},
                         {(1, 76540, 120, 880), (1, 76560, 0, 40), (2, 76540, 10, 500)})

    def test_it_samples_counters_per_instance(self) -> None:
        samples = {s.instance_number: s for s in self.collection.samples}
        first, second = samples[1], samples[2]
        self.assertEqual(first.sampled_at, dt.datetime(2024, 5, 6, 11, 5, tzinfo=UTC))
        self.assertEqual(second.startup_at, dt.datetime(2024, 5, 6, 8, 30, tzinfo=UTC))
        names = {key.object_name: key for key in first.segment_totals}
        self.assertEqual(set(names), {"OrderLines", "ORDERS"})  # obj 99999 matches no segment
        self.assertEqual(first.segment_totals[names["OrderLines"]]["physical_read_requests"], 900000)
        self.assertEqual(first.segment_places[names["ORDERS"]], ("ORDERS_TS", 76552, 76560))
        self.assertEqual(first.sysstat_totals["physical read flash cache hits"], 3100000)
        self.assertEqual(second.tablespace_totals, {"USERS": (27000, 9000, 135000.0)})

    def test_it_releases_the_connection_and_sets_limits(self) -> None:
        [connection] = self.connect.connections
        self.assertTrue(connection.closed)
        self.assertTrue(self.connect.cursor.closed)
        self.assertGreater(connection.call_timeout, 0)
        self.assertTrue(all(size >= 1000 for size in self.connect.cursor.arraysize_at_execute))

    def test_it_uses_the_con_dbid_variant_on_19c(self) -> None:
        self.assertIn("seg_stat", [stem for stem, _binds in self.connect.cursor.executed])

    def test_it_reads_only_what_each_instance_lacks(self) -> None:
        state = CollectState(now=rac_state().now, history_start_at=rac_state().history_start_at,
                             last_snap_ids={(RAC_DBID, 1): 102, (RAC_DBID, 2): 100})
        collection = source("rac_awr", "awr")[0].collect(state)
        self.assertEqual(sorted((s.instance_number, s.snap_id) for s in collection.snapshots),
                         [(1, 104), (2, 101), (2, 102), (2, 103), (2, 104)])


class NopackCollectionTests(unittest.TestCase):
    def setUp(self) -> None:
        self.loaded: list[str] = []
        real_load = queries.load_sql

        def spy(stem: str, *, mode: str) -> str:
            self.loaded.append(stem)
            return real_load(stem, mode=mode)

        patcher = mock.patch.object(queries, "load_sql", side_effect=spy)
        patcher.start()
        self.addCleanup(patcher.stop)

    def licensed_views(self) -> set[str]:
        from .sql_catalog import catalog

        return {view for view, entry in catalog().items() if entry.get("license")}

    def assert_pack_free(self, connect: FakeConnect) -> None:
        executed = [stem for stem, _binds in connect.cursor.executed]
        self.assertFalse([stem for stem in self.loaded if stem.startswith("pack_")])
        self.assertFalse([stem for stem in executed if stem.startswith("pack_")])
        licensed = self.licensed_views()
        for text in connect.cursor.executed_texts:
            self.assertEqual(set(queries.views_read(text)) & licensed, set())
            for view in licensed:
                self.assertNotIn(view.lower(), text.lower())

    def test_it_never_loads_or_runs_a_pack_statement(self) -> None:
        nopack, connect = source("single_nopack", "nopack")
        collection = nopack.collect(single_state())
        self.assertTrue(collection.snapshots)
        self.assert_pack_free(connect)

    def test_it_stays_pack_free_on_rac_with_awr_history(self) -> None:
        # The RAC recording has pack rows; nopack must not ask for them.
        nopack, connect = source("rac_awr", "nopack")
        collection = nopack.collect(rac_state())
        self.assert_pack_free(connect)
        self.assertTrue(all(s.sysstats == () and s.tablespace_io == () for s in collection.snapshots))
        self.assertTrue(any(s.segment_stats for s in collection.snapshots))

    def test_it_would_see_a_pack_statement(self) -> None:
        # The spy is live: awr mode on the same recording loads pack statements.
        source("rac_awr", "awr")[0].collect(rac_state())
        self.assertIn("pack_sysstat", self.loaded)


class SingleNopackCollectionTests(unittest.TestCase):
    def setUp(self) -> None:
        self.source, self.connect = source("single_nopack", "nopack")
        self.collection = self.source.collect(single_state())

    def test_it_bounds_the_first_run_by_the_history_start(self) -> None:
        self.assertIn(("snapshots", {"dbid": SINGLE_DBID, "last_snap_id": 0,
                                     "begin_at": dt.datetime(2024, 5, 13, 3, 0)}), self.connect.cursor.executed)
        self.assertEqual([s.snap_id for s in self.collection.snapshots], [500, 501, 502])

    def test_it_falls_back_to_the_server_offset_without_snap_timezone(self) -> None:
        self.assertEqual(self.collection.snapshots[0].begin_at, dt.datetime(2024, 5, 21, 0, tzinfo=UTC))

    def test_it_reads_v_bh_on_a_single_instance(self) -> None:
        executed = [stem for stem, _binds in self.connect.cursor.executed]
        self.assertIn("residency", executed)
        self.assertNotIn("residency_rac", executed)
        self.assertFalse(self.collection.database.is_rac)
        self.assertEqual(self.collection.database.block_size_bytes, 16384)

    def test_it_leaves_system_figures_to_the_samples(self) -> None:
        self.assertTrue(all(s.sysstats == () for s in self.collection.snapshots))
        [only] = self.collection.samples
        self.assertEqual(only.sysstat_totals["physical write IO requests"], 23456)
        self.assertEqual(only.tablespace_totals, {"SALES_DATA": (120000, 23000, None)})

    def test_it_refuses_awr_mode_when_the_pack_is_off(self) -> None:
        awr, connect = source("single_nopack", "awr")
        with self.assertRaises(SourceError) as raised:
            awr.collect(single_state())
        self.assertTrue(raised.exception.permanent)
        self.assertIn("nopack", str(raised.exception))
        executed = [stem for stem, _binds in connect.cursor.executed]
        self.assertEqual(executed, ["instance", "parameters"])  # refused before any DBA_HIST read
        self.assertTrue(connect.connections[0].closed)


class SourceErrorTests(unittest.TestCase):
    def test_it_names_the_failing_statement_and_grant(self) -> None:
        error = oracledb_errors._Error("ORA-00942: table or view does not exist", code=942)
        failing, connect = source("rac_awr", "awr", failures={"seg_stat": error.exc_type(error)})
        with self.assertRaises(SourceError) as raised:
            failing.collect(rac_state())
        message = str(raised.exception)
        self.assertTrue(raised.exception.permanent)
        self.assertEqual(raised.exception.code, "ORA-00942")
        self.assertIn("seg_stat", message)
        self.assertIn("GRANT SELECT ON SYS.DBA_HIST_SEG_STAT TO TIERSCOPE", message)
        self.assertIn("create_monitor_user.sql", message)
        self.assertTrue(connect.connections[0].closed)

    def test_it_maps_a_connect_failure_to_a_transient_error(self) -> None:
        refused = oracledb_errors._create_exception(oracledb_errors.ERR_CONNECTION_FAILED)
        failing, _connect = source("rac_awr", "awr", connect_error=refused)
        with self.assertRaises(SourceError) as raised:
            failing.collect(rac_state())
        self.assertFalse(raised.exception.permanent)
        self.assertIn("dbhost1:1521/PROD", str(raised.exception))

    def test_it_does_not_show_the_password(self) -> None:
        self.assertNotIn("s3cret", repr(source("rac_awr", "awr")[0]))

    def test_it_checks_a_target_for_the_admin(self) -> None:
        self.assertEqual(source("rac_awr", "awr")[0].check(), [])
        findings = source("single_nopack", "awr")[0].check()
        self.assertEqual(len(findings), 1)
        self.assertIn("nopack", findings[0])

    def test_it_refuses_an_unknown_mode(self) -> None:
        with self.assertRaisesRegex(ValueError, "'sampled'"):
            OracleSource(dsn="x", user="u", password="p", mode="sampled")


class RecordingShapeTests(unittest.TestCase):
    def test_it_records_exactly_the_columns_each_statement_returns(self) -> None:
        import sqlglot

        for name in ("rac_awr", "single_nopack"):
            for stem, calls in load_recording(name)["statements"].items():
                expected = [n.upper() for n in sqlglot.parse_one(queries._read_sql(stem), read="oracle").named_selects]
                for call in calls:
                    with self.subTest(recording=name, statement=stem):
                        self.assertEqual(call["columns"], expected)
                        self.assertTrue(all(len(row) == len(expected) for row in call["rows"]))

    def test_it_stores_recordings_as_json(self) -> None:
        from .fakes import RECORDED_DIR

        self.assertEqual(sorted(p.stem for p in RECORDED_DIR.glob("*.json")), ["rac_awr", "single_nopack"])
        for path in RECORDED_DIR.glob("*.json"):
            self.assertIn("statements", json.loads(path.read_text()))
