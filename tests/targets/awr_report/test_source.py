"""report_to_collection: an AWR report as the shared row contract."""

from __future__ import annotations

import datetime as dt
import unittest

from apps.targets.awr_report import parse_report
from apps.targets.awr_report.source import dba_segment_type, report_to_collection
from apps.targets.rows import SegmentKey
from tests.targets.awr_report.samples import sample_bytes

UTC = dt.timezone.utc


def _collection(name: str):
    return report_to_collection(parse_report(sample_bytes(name), filename=name))


class ReportToCollectionTests(unittest.TestCase):
    def test_it_maps_a_single_instance_report(self) -> None:
        collection = _collection("sarthi2020__AWR-reports__awr_rpt_1.html")
        self.assertEqual(collection.database.dbid, 3002120671)
        self.assertEqual(collection.database.db_name, "DB1UAT")
        self.assertEqual(collection.database.release, "11.2.0.3.0")
        self.assertFalse(collection.database.is_rac)
        self.assertEqual(collection.database.instances, (1,))
        self.assertEqual(collection.segments, ())
        (snapshot,) = collection.snapshots
        self.assertEqual((snapshot.instance_number, snapshot.snap_id), (1, 42810))
        self.assertEqual(snapshot.begin_at, dt.datetime(2018, 10, 15, 18, 30, 16, tzinfo=UTC))
        self.assertEqual(snapshot.end_at, dt.datetime(2018, 10, 15, 19, 30, 32, tzinfo=UTC))
        self.assertEqual(snapshot.startup_at, dt.datetime(2018, 9, 7, 23, 9, tzinfo=UTC))
        self.assertTrue(snapshot.top_n_only)

    def test_it_maps_segment_counts_to_the_row_fields(self) -> None:
        (snapshot,) = _collection("sarthi2020__AWR-reports__awr_rpt_1.html").snapshots
        key = SegmentKey("FINAXIAUAT2", "PAYMENT_INSTRUCTION", "", "TABLE")
        (stat,) = [s for s in snapshot.segment_stats if s.key == key and s.tablespace_name == "TESTING2"]
        self.assertEqual(stat.physical_read_requests, 551047)
        self.assertEqual(stat.physical_reads_blocks, 63370496)
        self.assertEqual(stat.physical_reads_direct_blocks, 63113480)
        self.assertEqual(stat.logical_reads, 63431392)
        self.assertIsNone(stat.physical_write_requests)
        self.assertIsNone(stat.obj_number)
        self.assertIsNone(stat.dataobj_number)

    def test_it_spells_object_types_as_dba_segments_does(self) -> None:
        (snapshot,) = _collection("pcambell__awrrptanalyzor__awrrpt__11g__awrrpt_1_36006_36007.html").snapshots
        types = {s.key.object_name: s.key.object_type for s in snapshot.segment_stats}
        self.assertEqual(types["SYS_LOB0000092764C00009$$"], "LOBSEGMENT")
        self.assertEqual(types["T_ONLINE_USER"], "TABLE")

    def test_it_completes_the_truncated_types_of_text_reports(self) -> None:
        (snapshot,) = _collection("ora600pl__jas-min__awrrpt_1_2668_2669.txt").snapshots
        lob = [s for s in snapshot.segment_stats if s.key.subobject_name == "_LOB_P3044"]
        self.assertEqual(lob[0].key.object_type, "LOB PARTITION")
        self.assertEqual(dba_segment_type("TABLE", "80142923_0", truncated=True), "TABLE PARTITION")
        self.assertEqual(dba_segment_type("TABLE", "", truncated=True), "TABLE")
        self.assertEqual(dba_segment_type("INDEX PARTITION", "P1"), "INDEX PARTITION")
        self.assertEqual(dba_segment_type("UNDEFINED", ""), "UNDEFINED")

    def test_it_computes_tablespace_read_time(self) -> None:
        (snapshot,) = _collection("sarthi2020__AWR-reports__awr_rpt_1.html").snapshots
        (users,) = [t for t in snapshot.tablespace_io if t.tablespace_name == "USERS"]
        self.assertEqual((users.read_requests, users.write_requests), (2195142, 84199))
        self.assertAlmostEqual(users.read_time_ms, 2195142 * 1.83)

    def test_it_carries_flash_statistics(self) -> None:
        (snapshot,) = _collection("eyko139__awr_reports__awr_PRDG_1_237812_237837.htm").snapshots
        stats = {s.name: s.value for s in snapshot.sysstats}
        self.assertEqual(stats["cell flash cache read hits"], 4717400)

    def test_it_numbers_a_global_report_instance_zero(self) -> None:
        collection = _collection("edwinjiang__dataextraction_found__beautifulsoap__awr_rac.html")
        (snapshot,) = collection.snapshots
        self.assertEqual(snapshot.instance_number, 0)
        self.assertEqual(collection.database.instances, (1, 2))
        self.assertTrue(collection.database.is_rac)
        # The later of the two instance startups (10:33 and 10:41).
        self.assertEqual(snapshot.startup_at, dt.datetime(2016, 9, 14, 10, 41, tzinfo=UTC))
        self.assertTrue(any("global RAC" in note for note in collection.notes))


class StatedElapsedTests(unittest.TestCase):
    """Issue 15 item 11: the interval is the elapsed time the report states, not its minute-rounded times."""

    def test_it_takes_the_interval_of_a_global_report_from_its_stated_elapsed_time(self) -> None:
        (snapshot,) = _collection("edwinjiang__dataextraction_found__beautifulsoap__awr_rac.html").snapshots
        # Snapshot times print minutes only (180 s apart); the report states 2.77 min
        self.assertEqual((snapshot.end_at - snapshot.begin_at).total_seconds(), 180.0)
        self.assertAlmostEqual(snapshot.interval_seconds, 2.77 * 60)

    def test_it_takes_the_stated_elapsed_time_of_an_instance_report(self) -> None:
        (snapshot,) = _collection("1newstar__awr2csv__sample__awr_11204_1.txt").snapshots
        self.assertAlmostEqual(snapshot.interval_seconds, 60.22 * 60)


class SubpartitionReportTests(unittest.TestCase):
    def test_a_subpartition_a_report_lists_is_a_segment_of_its_own(self) -> None:
        name = "Lucky29011__reports__awr.html"
        html = sample_bytes(name).replace(
            b"WRH$_SYSSTAT_2742271753_0</td><td class='awrc'>TABLE PARTITION",
            b"WRH$_SYSSTAT_2742271753_0_H1</td><td class='awrc'>TABLE SUBPARTITION")

        (snapshot,) = report_to_collection(parse_report(html, filename=name)).snapshots

        subpartitions = [s for s in snapshot.segment_stats if s.key.object_type == "TABLE SUBPARTITION"]
        self.assertEqual({s.key.subobject_name for s in subpartitions}, {"WRH$_SYSSTAT_2742271753_0_H1"})
        self.assertTrue(all(s.key.object_name == "WRH$_SYSSTAT" for s in subpartitions))
