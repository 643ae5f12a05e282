"""Compare-period reports (awrddrpt.sql / awrddrpi.sql): both periods read, each on its own.

Real 11.2.0.3 compare-period reports were refused: their "Top Segments Comparison by ..." sections print one row
per segment with grouped columns ("% of Total", the statistic, "% of Captured", each with 1st and 2nd), not the
side-by-side halves the importer expected. No real segment comparison was found in public code: the fixtures
(awrddrpt_11203.txt / .html, one report in both forms; awrdiff_19c.txt; awrdiff_rac_12c.html) are built from that
layout as their headers say.
"""

from __future__ import annotations

import datetime as dt
import json
import re
import unittest
from pathlib import Path

from apps.targets.awr_report import parse_report
from apps.targets.awr_report.source import report_to_collection
from tests.targets.awr_report.samples import RefusalAssertions, replaced_after

FIXTURES = Path(__file__).resolve().parent / "fixtures"
TEXT_11203 = "awrddrpt_11203.txt"
HTML_11203 = "awrddrpt_11203.html"
TEXT = "awrdiff_19c.txt"
HTML = "awrdiff_rac_12c.html"


def _data(name: str) -> bytes:
    return (FIXTURES / name).read_bytes()


def _stats(period, object_name: str) -> dict[str, int | None]:
    (segment,) = [s for s in period.segments if s.object_name.startswith(object_name)]
    return segment.stats


class Compare11203Tests(unittest.TestCase):
    """The layout of real 11.2.0.3 reports, text and HTML of one report."""

    def setUp(self) -> None:
        self.text = parse_report(_data(TEXT_11203), filename=TEXT_11203)
        self.html = parse_report(_data(HTML_11203), filename=HTML_11203)

    def test_it_reads_both_periods_with_their_own_snapshots_and_elapsed_seconds(self) -> None:
        for report in (self.text, self.html):
            first, second = report.periods
            self.assertEqual((first.db_name, first.dbid, first.instance_number, first.release),
                             ("ORCL", 1363918766, 1, "11.2.0.3.0"))
            self.assertEqual((first.begin_snap, first.end_snap, second.begin_snap, second.end_snap), (2, 3, 26, 27))
            self.assertEqual(second.begin_time, dt.datetime(2014, 2, 25, 9, 0, 7))
            # The section titles state each period's elapsed seconds (3613.2 s; the header rounds to 60.2 min)
            self.assertAlmostEqual(first.elapsed_minutes * 60, 3613.2, places=1)
            self.assertAlmostEqual(second.elapsed_minutes * 60, 3601.9, places=1)

    def test_it_reads_each_period_s_figure_of_every_segment_row(self) -> None:
        for report in (self.text, self.html):
            first, second = report.periods
            self.assertEqual(_stats(first, "ORDERS_PK"), {"logical_reads": 3_000_000, "physical_read_requests": 6100,
                                                          "unoptimized_reads": 6100})
            self.assertEqual(_stats(second, "ORDERS_PK"), {"logical_reads": 2_900_000, "physical_read_requests": 5900,
                                                           "unoptimized_reads": 5900})
            self.assertEqual(_stats(second, "CUSTOMERS"), {"physical_read_requests": 4200})
            self.assertEqual(report.segments, ())

    def test_n_a_is_unknown_for_that_period_never_0_and_bounded_by_its_top_list(self) -> None:
        for report in (self.text, self.html):
            first, second = report.periods
            # INVENTORIES: 1,980 read requests in the 1st period, N/A (no data captured) in the 2nd
            self.assertEqual(_stats(first, "INVENTORIES")["physical_read_requests"], 1980)
            (inventories,) = [s for s in second.segments if s.object_name == "INVENTORIES"]
            self.assertIsNone(inventories.stats["physical_read_requests"])
            self.assertEqual(inventories.bounds["physical_read_requests"],
                             second.unlisted_bounds["physical_read_requests"])
            self.assertEqual(_stats(first, "LOGON_AUDIT_TRAIL_PA"), {"physical_read_requests": None})

    def test_each_period_is_bounded_by_its_own_top_n_and_total(self) -> None:
        for report in (self.text, self.html):
            first, second = report.periods
            # Top 5 of the 1st period: its 5th largest is 1,980; the 2nd period's rows leave 250 of its total
            self.assertEqual(first.unlisted_bounds["physical_read_requests"], 1980)
            self.assertEqual(second.unlisted_bounds["physical_read_requests"], 250)
            # "No data exists": the statistic was read, and gives no bound
            self.assertIn("physical_writes_direct", first.unlisted_bounds)
            self.assertIsNone(first.unlisted_bounds["physical_writes_direct"])

    def test_the_text_and_html_forms_give_the_same_figures(self) -> None:
        def figures(report):
            return [{(s.owner, s.object_name[:20], s.tablespace_name): s.stats for s in p.segments}
                    for p in report.periods]

        self.assertEqual(figures(self.text), figures(self.html))
        self.assertEqual([p.unlisted_bounds for p in self.text.periods], [p.unlisted_bounds for p in self.html.periods])

    def test_it_marks_a_name_the_text_form_cut_to_its_column(self) -> None:
        (cut,) = [s for s in self.text.periods[1].segments if s.name_truncated]
        self.assertEqual((cut.object_name, cut.subobject_name), ("LOGON_AUDIT_TRAIL_PA", "_P20140225"))
        (whole,) = [s for s in self.html.periods[1].segments if s.object_name.startswith("LOGON_AUDIT")]
        self.assertEqual((whole.object_name, whole.object_type), ("LOGON_AUDIT_TRAIL_PART", "TABLE PARTITION"))

    def test_it_maps_each_period_to_a_snapshot_with_the_n_a_figure_unknown_and_bounded(self) -> None:
        first, second = report_to_collection(self.html).snapshots

        self.assertEqual((first.snap_id, second.snap_id), (3, 27))
        (inventories,) = [s for s in second.segment_stats if s.key.object_name == "INVENTORIES"]
        self.assertIsNone(inventories.physical_read_requests)
        self.assertEqual(inventories.read_requests_bound, 250)
        self.assertEqual(second.unlisted_read_requests_bound, 250)

    def test_it_reads_the_grouped_header_rows_whether_the_names_span_both_rows_or_sit_in_the_second(self) -> None:
        document = _data(HTML_11203).decode()
        names = re.findall(r'<th class="awrbg" scope="col" rowspan="2">[^<]*</th>', document)[:5]
        moved = document.replace("".join(names), '<th class="awrbg" colspan="5"></th>').replace(
            '<tr><th class="awrbg" scope="col">1st</th>',
            "<tr>" + "".join(names).replace(' rowspan="2"', "") + '<th class="awrbg" scope="col">1st</th>')

        report = parse_report(moved, filename=HTML_11203)

        self.assertEqual([p.to_json_dict() for p in report.periods], [p.to_json_dict() for p in self.html.periods])

    def test_it_reads_the_html_report_hard_wrapped_by_sqlplus(self) -> None:
        from tests.targets.awr_report.spooled import sqlplus_wrap

        wrapped = parse_report(sqlplus_wrap(_data(HTML_11203).decode(), 132), filename=HTML_11203)

        self.assertEqual(wrapped.to_json_dict(), self.html.to_json_dict())

    def test_it_shows_both_periods_in_its_json(self) -> None:
        data = json.loads(json.dumps(self.text.to_json_dict()))

        self.assertEqual([p["label"] for p in data["periods"]], ["1st", "2nd"])
        self.assertEqual([p["end_snap"] for p in data["periods"]], [3, 27])


class CompareOtherReportsTests(unittest.TestCase):
    def test_it_reads_a_19c_pdb_report_in_text(self) -> None:
        first, second = parse_report(_data(TEXT), filename=TEXT).periods

        self.assertEqual((first.dbid, first.db_name, first.begin_snap, second.end_snap), (909607496, "CDB1", 91, 89))
        self.assertEqual(_stats(first, "ORDERS"), {"physical_read_requests": 12345, "physical_write_requests": 4000})
        self.assertEqual(_stats(second, "ORDERS"), {"physical_read_requests": 11000, "physical_write_requests": 3800})
        self.assertEqual(_stats(second, "CUSTOMERS_PK"), {"physical_read_requests": None})
        # Top 3 of each period: the 1st period's 3rd largest is 2,001, the 2nd period's 3,100
        self.assertEqual(first.unlisted_bounds["physical_read_requests"], 2001)
        self.assertEqual(second.unlisted_bounds["physical_read_requests"], 3100)

    def test_it_reads_two_instances_of_one_rac_database(self) -> None:
        report = parse_report(_data(HTML), filename=HTML)
        first, second = report.periods

        self.assertEqual((first.dbid, first.instance_number, second.instance_number), (2871094613, 1, 2))
        self.assertAlmostEqual(first.elapsed_minutes, 60.10)
        self.assertAlmostEqual(second.elapsed_minutes, 60.07)
        snapshot = report_to_collection(report).snapshots[1]
        (orders,) = [s for s in snapshot.segment_stats if s.key.object_name == "ORDERS"]
        self.assertEqual((orders.physical_read_requests, orders.key.object_type), (52500, "TABLE PARTITION"))
        (orders_pk,) = [s for s in snapshot.segment_stats if s.key.object_name == "ORDERS_PK"]
        self.assertIsNone(orders_pk.physical_read_requests)
        self.assertEqual(orders_pk.read_requests_bound, snapshot.unlisted_read_requests_bound)


class CompareLayoutTests(RefusalAssertions, unittest.TestCase):
    def test_it_refuses_a_segment_table_it_does_not_know_naming_the_section_not_truncation(self) -> None:
        # The statistic's group renamed away: no 1st / 2nd figure columns are left to read
        document = _data(HTML_11203).decode()
        data = document.replace('colspan="3">Physical Read Requests</th>', 'colspan="3">Other</th>', 1).replace(
            'colspan="5">% of Total Physical Read Requests</th>', 'colspan="5">% of Total Other</th>', 1)
        data = re.sub(r'(Physical Read Requests</h3>.*?)<th class="awrbg" scope="col">1st</th><th class="awrbg" '
                      r'scope="col">2nd</th><th class="awrbg" scope="col">%Diff</th>',
                      r'\1<th class="awrbg" scope="col">A</th><th class="awrbg" scope="col">B</th>'
                      r'<th class="awrbg" scope="col">%Diff</th>', data, count=1, flags=re.DOTALL)
        error = self.assert_refused(data, "compare-period report", "'Top Segments Comparison by Physical Read Requests'",
                                    "columns tierscope does not read", filename="diff.html")
        self.assertNotIn("truncated", str(error))

    def test_it_refuses_a_text_table_without_an_owner_heading(self) -> None:
        data = replaced_after(_data(TEXT_11203).decode(), "Top Segments Comparison by Physical Write Requests",
                              "\nOwner ", "\nSchema")
        self.assert_refused(data, "'Top Segments Comparison by Physical Write Requests'", "columns tierscope does not read",
                            filename="diff.txt")

    def test_it_refuses_a_header_without_a_periods_db_id(self) -> None:
        data = _data(TEXT).replace(b"Second (2nd)   909607496", b"Second (2nd)            ", 1)
        self.assert_refused(data, "compare-period report", "no DB Id for the 2nd period", filename="diff.txt")

    def test_it_still_refuses_a_compare_report_cut_inside_its_segments(self) -> None:
        text = _data(TEXT).decode()
        cut = text[: text.index("SOE        SOE        ORDER_ITEMS ")]
        self.assert_refused(cut, "truncated", "Top Segments Comparison by Physical Read Requests", filename="diff.txt")

    def test_it_names_a_segment_section_it_does_not_know_in_the_notes(self) -> None:
        data = _data(TEXT_11203).replace(b"Top Segments Comparison by Direct Physical Writes",
                                         b"Top Segments by Direct Physical Writes", 1)
        data = data.replace(b"No data exists for this section of the report.", b"(rows not shown)", 1)
        # The No-data text of the renamed section is its last one
        report = parse_report(data, filename="diff.txt")
        self.assertTrue(any("'Top Segments by Direct Physical Writes'" in note and "passed over" in note
                            for note in report.notes), report.notes)

    def test_it_refuses_a_segment_section_too_large_to_read_rather_than_read_it_as_empty(self) -> None:
        from unittest import mock

        with mock.patch("apps.targets.awr_report.html.MAX_SECTION_BYTES", 1000), \
                mock.patch("apps.targets.awr_report.compare.MAX_SECTION_BYTES", 1000):
            self.assert_refused(_data(HTML_11203), "'Top Segments Comparison by Logical Reads'", "characters long",
                                filename="diff.html")

    def test_without_its_top_n_a_period_is_bounded_by_its_total_only(self) -> None:
        # Without "Top N Segments from each period", a period's smallest row may be a segment of the other
        # period's top list doing little in this one: it bounds nothing. The total less the rows still does.
        data = _data(TEXT_11203).replace(b"-> Top 5 Segments from each period are compared", b"->")

        first, _ = parse_report(data, filename=TEXT_11203).periods

        # 1st period: total about 30,000 requests (ORDERS' 12,345 are 41.15 %), 25,875 of them listed
        self.assertGreater(first.unlisted_bounds["physical_read_requests"], 1980)
        self.assertAlmostEqual(first.unlisted_bounds["physical_read_requests"], 30_000 - 25_875, delta=10)

    def test_it_reads_group_titles_printed_without_a_dash_line_under_them(self) -> None:
        text = _data(TEXT_11203).decode()
        group_rule = "-" * 40 + " " + "-" * 33 + " " + "-" * 23
        self.assertIn(group_rule, text)
        lines = [line for line in text.split("\n") if line.strip() != group_rule]

        report = parse_report("\n".join(lines), filename=TEXT_11203)

        expected = parse_report(_data(TEXT_11203), filename=TEXT_11203)
        self.assertEqual([p.segments for p in report.periods], [p.segments for p in expected.periods])
        self.assertEqual([p.unlisted_bounds for p in report.periods], [p.unlisted_bounds for p in expected.periods])
