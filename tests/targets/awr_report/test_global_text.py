"""Global RAC reports (awrgrpt.sql) in text form are read, as their HTML form is (they were refused).

The fixture's header is that of a real 11.2.0.3 awrgrpt.sql text report (see its header comment); its
"Segment Statistics (Global)" section prints the HTML global table's columns in text form.
"""

from __future__ import annotations

import datetime as dt
import unittest
from pathlib import Path

from apps.targets.awr_report import parse_report
from apps.targets.awr_report.source import report_to_collection

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "awrgrpt_11203.txt"


def _report(data: bytes | str | None = None):
    return parse_report(FIXTURE.read_bytes() if data is None else data, filename=FIXTURE.name)


class GlobalTextHeaderTests(unittest.TestCase):
    def test_it_reads_the_database_summary_and_every_instance(self) -> None:
        report = _report()

        self.assertTrue(report.is_global and report.rac)
        self.assertEqual((report.db_name, report.dbid, report.release), ("DD453", 473377021, "11.2.0.3.0"))
        self.assertEqual(report.instances, (1, 2, 3))
        self.assertEqual((report.begin_snap, report.end_snap), (35846, 35847))
        self.assertEqual((report.begin_time, report.end_time),
                         (dt.datetime(2016, 2, 19, 17, 30), dt.datetime(2016, 2, 19, 18, 0)))
        # The Database Summary's Report Total elapsed time, not end - begin (printed to the minute)
        self.assertEqual((report.elapsed_minutes, report.elapsed_stated), (30.03, True))
        self.assertEqual(report.startup_times[2], dt.datetime(2016, 2, 16, 21, 38))

    def test_it_maps_to_one_snapshot_of_instance_0(self) -> None:
        (snapshot,) = report_to_collection(_report()).snapshots

        self.assertEqual((snapshot.instance_number, snapshot.snap_id), (0, 35847))
        self.assertAlmostEqual(snapshot.interval_seconds, 30.03 * 60)


class GlobalTextSegmentTests(unittest.TestCase):
    def test_it_reads_each_row_under_the_statistic_named_above_it(self) -> None:
        segments = {(s.object_name, s.subobject_name): s.stats for s in _report().segments}

        self.assertEqual(segments[("ORDERS", "P2016_02")], {"physical_read_requests": 12345,
                                                            "physical_write_requests": 4000,
                                                            "logical_reads": 912000})
        self.assertEqual(segments[("ORDERS_PK", "")], {"physical_read_requests": 6100})
        self.assertEqual(segments[("INVENTORIES", "")], {"physical_write_requests": 1200})

    def test_a_statistic_printed_on_every_row_reads_the_same(self) -> None:
        text = FIXTURE.read_text()
        lines = text.split("\n")
        named = []
        current = ""
        for line in lines:
            if line.startswith(("physical read requests", "physical write requests", "logical reads")):
                current = line[:30]
            elif current and line.startswith(" " * 31 + "APP") or current and line.startswith(" " * 31 + "SYS"):
                line = current + line[30:]
            named.append(line)

        self.assertNotEqual(named, lines)
        self.assertEqual(_report("\n".join(named)).to_json_dict(), _report().to_json_dict())

    def test_it_marks_a_name_cut_to_its_column(self) -> None:
        (cut,) = [s for s in _report().segments if s.name_truncated]
        self.assertEqual((cut.object_name, cut.subobject_name), ("WRH$_ACTIVE_SESSION_", "7021_35846"))
