"""Compare-period reports (awrddrpt.sql / awrddrpi.sql; issue 15, item 5): both periods read, each on its own.

They were refused, the HTML one as "report is truncated". The fixtures' headers say where their layout comes from.
"""

from __future__ import annotations

import datetime as dt
import json
import unittest
from pathlib import Path

from apps.targets.awr_report import parse_report
from apps.targets.awr_report.source import report_to_collection
from tests.targets.awr_report.samples import RefusalAssertions

FIXTURES = Path(__file__).resolve().parent / "fixtures"
TEXT = "awrdiff_19c.txt"
HTML = "awrdiff_rac_12c.html"


def _data(name: str) -> bytes:
    return (FIXTURES / name).read_bytes()


def _stats(period, object_name: str) -> dict[str, int | None]:
    (segment,) = [s for s in period.segments if s.object_name == object_name]
    return segment.stats


class CompareTextTests(unittest.TestCase):
    def setUp(self) -> None:
        self.report = parse_report(_data(TEXT), filename=TEXT)

    def test_it_reads_both_periods_with_their_own_snapshots_and_times(self) -> None:
        first, second = self.report.periods

        self.assertEqual((first.label, first.dbid, first.instance_number, first.db_name), ("1st", 909607496, 1, "CDB1"))
        self.assertEqual((first.begin_snap, first.end_snap), (91, 92))
        self.assertEqual((second.begin_snap, second.end_snap), (88, 89))
        self.assertEqual(first.begin_time, dt.datetime(2023, 12, 8, 0, 29, 40))
        self.assertEqual(second.end_time, dt.datetime(2023, 12, 8, 0, 28, 57))
        # The section titles state each period's elapsed seconds (300.339 s; the header rounds to 5.0 min)
        self.assertAlmostEqual(first.elapsed_minutes * 60, 300.339, places=1)
        self.assertAlmostEqual(second.elapsed_minutes * 60, 300.328, places=1)

    def test_it_gives_each_period_its_own_segments(self) -> None:
        first, second = self.report.periods

        self.assertEqual(_stats(first, "ORDERS"), {"physical_read_requests": 12345, "physical_write_requests": 4000})
        self.assertEqual(_stats(second, "ORDERS"), {"physical_read_requests": 11000, "physical_write_requests": 3800})
        self.assertNotIn("CUSTOMERS_PK", {s.object_name for s in second.segments})
        # A row marked "-" (outside the 1st period's top list) keeps its figure; N/A lists nothing
        self.assertEqual(_stats(first, "INVENTORIES"), {"physical_read_requests": 1500})
        self.assertEqual(_stats(second, "INVENTORIES"), {"physical_read_requests": 3100})
        self.assertEqual(self.report.segments, ())

    def test_it_bounds_each_period_by_its_own_top_rows(self) -> None:
        first, second = self.report.periods

        # The "-" row (1,500) is not in the 1st period's top list: its smallest top row is 2,001
        self.assertEqual(first.unlisted_bounds["physical_read_requests"], 2001)
        self.assertEqual(second.unlisted_bounds["physical_write_requests"], 1300)

    def test_it_marks_a_name_cut_to_its_column(self) -> None:
        (cut,) = [s for s in self.report.periods[0].segments if s.name_truncated]
        self.assertEqual((cut.object_name, cut.subobject_name), ("LOGON_AUDIT_TRAIL_PA", "2023_12_08"))

    def test_it_shows_both_periods_in_its_json(self) -> None:
        data = json.loads(json.dumps(self.report.to_json_dict()))

        self.assertEqual([p["label"] for p in data["periods"]], ["1st", "2nd"])
        self.assertEqual([p["end_snap"] for p in data["periods"]], [92, 89])
        self.assertIn("ORDERS", {s["object_name"] for s in data["periods"][1]["segments"]})


class CompareHtmlTests(unittest.TestCase):
    def setUp(self) -> None:
        self.report = parse_report(_data(HTML), filename=HTML)

    def test_it_reads_two_instances_of_one_database(self) -> None:
        first, second = self.report.periods

        self.assertEqual((first.dbid, first.instance_number), (2871094613, 1))
        self.assertEqual((second.dbid, second.instance_number), (2871094613, 2))
        self.assertEqual((first.begin_snap, first.end_snap, second.end_snap), (1200, 1201, 1201))
        self.assertAlmostEqual(first.elapsed_minutes, 60.10)
        self.assertAlmostEqual(second.elapsed_minutes, 60.07)
        self.assertEqual(_stats(first, "ORDERS"),
                         {"physical_read_requests": 88000, "physical_write_requests": 7700, "logical_reads": 9100000})
        self.assertEqual(_stats(second, "ORDERS_PK"), {"logical_reads": 2900000})

    def test_it_maps_each_period_to_a_snapshot_of_its_own(self) -> None:
        collection = report_to_collection(self.report)

        first, second = collection.snapshots
        self.assertEqual((first.instance_number, first.snap_id, second.instance_number, second.snap_id), (1, 1201, 2, 1201))
        self.assertAlmostEqual(first.interval_seconds, 60.10 * 60)
        self.assertAlmostEqual(second.interval_seconds, 60.07 * 60)
        (orders,) = [s for s in second.segment_stats if s.key.object_name == "ORDERS"]
        self.assertEqual((orders.physical_read_requests, orders.key.object_type), (52500, "TABLE PARTITION"))
        (orders_pk,) = [s for s in second.segment_stats if s.key.object_name == "ORDERS_PK"]
        self.assertIsNone(orders_pk.physical_read_requests)
        self.assertEqual(orders_pk.read_requests_bound, second.unlisted_read_requests_bound)


    def test_it_reads_the_report_hard_wrapped_by_sqlplus(self) -> None:
        from tests.targets.awr_report.test_layouts import sqlplus_wrap

        wrapped = parse_report(sqlplus_wrap(_data(HTML).decode(), 132), filename=HTML)

        self.assertEqual(wrapped.to_json_dict(), self.report.to_json_dict())


class CompareLayoutTests(RefusalAssertions, unittest.TestCase):
    def test_it_refuses_a_segment_table_it_does_not_know_naming_the_section_not_truncation(self) -> None:
        # One half only (the 2nd period's Owner column renamed): not a layout tierscope reads
        head, _, tail = _data(HTML).partition(b"Top Segments Comparison by Physical Read Requests</h3>")
        first, _, rest = tail.partition(b'scope="col">Owner</th>')
        tail = first + b'scope="col">Owner</th>' + rest.replace(b'scope="col">Owner</th>', b'scope="col">Schema</th>', 1)
        error = self.assert_refused(head + b"Top Segments Comparison by Physical Read Requests</h3>" + tail,
                                    "compare-period report", "'Top Segments Comparison by Physical Read Requests'",
                                    "columns tierscope does not read", filename="diff.html")
        self.assertNotIn("truncated", str(error))

    def test_it_refuses_a_header_without_a_periods_db_id(self) -> None:
        data = _data(TEXT).replace(b"Second (2nd)   909607496", b"Second (2nd)            ", 1)
        self.assert_refused(data, "compare-period report", "no DB Id for the 2nd period", filename="diff.txt")

    def test_it_still_refuses_a_compare_report_cut_inside_its_segments(self) -> None:
        text = _data(TEXT).decode()
        cut = text[: text.index(" SOE        SOE        ORDER_ITEMS ")]
        self.assert_refused(cut, "truncated", "Top Segments Comparison by Physical Read Requests", filename="diff.txt")
