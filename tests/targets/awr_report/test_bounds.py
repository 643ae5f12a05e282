"""Bounds for the figures a report leaves out (issue 15, item 1): top-N gaps and ##### are unknown, with a bound."""

from __future__ import annotations

import unittest

from apps.targets.awr_report import parse_report
from apps.targets.awr_report.source import report_to_collection
from tests.targets.awr_report.samples import sample_bytes

#: 12.2 RAC instance report: I_CF1 is listed by logical reads, not by physical read / write requests.
DB1TP = "edwinjiang__dataextraction_found__beautifulsoap__awr_db1tp.html"
TEXT_12C = "ora600pl__jas-min__awrrpt_1_2668_2669.txt"
#: 11.1: only "Segments by Physical Reads / Writes", no request sections at all.
OLD_11G = "structureddata__structureddata.github.io__assets__pq__range__1__awrrpt_1_910_911.html"


def _snapshot(data: bytes | str, name: str):
    (snapshot,) = report_to_collection(parse_report(data, filename=name)).snapshots
    return snapshot


def _stat(snapshot, owner: str, name: str, subobject: str = ""):
    (stat,) = [s for s in snapshot.segment_stats if s.key[:3] == (owner, name, subobject)]
    return stat


class UnlistedBoundTests(unittest.TestCase):
    def test_a_segment_left_out_of_the_request_sections_gets_their_bound_not_zero(self) -> None:
        snapshot = _snapshot(sample_bytes(DB1TP), DB1TP)
        stat = _stat(snapshot, "USER1", "I_CF1")

        # Not measured: None, never 0
        self.assertIsNone(stat.physical_read_requests)
        self.assertIsNone(stat.physical_write_requests)
        self.assertIsNotNone(stat.logical_reads)
        # Read requests: the smallest listed row (456) is below the section's 5,345,951 less the 5,343,956 listed
        self.assertEqual(stat.read_requests_bound, 456)
        # Write requests: the smallest row, 11 (2,111,837 - 2,106,503 = 5,334 is looser)
        self.assertEqual(stat.write_requests_bound, 11)
        # Segments listed nowhere get the same bounds from the snapshot
        self.assertEqual((snapshot.unlisted_read_requests_bound, snapshot.unlisted_write_requests_bound), (456, 11))

    def test_a_listed_figure_has_no_bound(self) -> None:
        stat = _stat(_snapshot(sample_bytes(DB1TP), DB1TP), "USER1", "CF1")

        self.assertEqual(stat.physical_read_requests, 5340956)
        self.assertIsNone(stat.read_requests_bound)

    def test_a_report_without_the_request_sections_gives_no_bound(self) -> None:
        snapshot = _snapshot(sample_bytes(OLD_11G), OLD_11G)

        self.assertTrue(snapshot.segment_stats)
        self.assertTrue(all(s.read_requests_bound is None and s.write_requests_bound is None
                            for s in snapshot.segment_stats))
        self.assertIsNone(snapshot.unlisted_read_requests_bound)
        self.assertIsNone(snapshot.unlisted_write_requests_bound)

    def test_the_remainder_of_the_section_bounds_when_it_is_tighter(self) -> None:
        # Physical Read Requests of the 12.2 text report: total 366,729. Lower the total to the listed rows
        # plus 100, so that the remainder (100) is below the smallest row.
        document = sample_bytes(TEXT_12C).decode()
        report = parse_report(document, filename="r.txt")
        listed = sum(s.stats["physical_read_requests"] or 0 for s in report.segments
                     if "physical_read_requests" in s.stats)
        edited = document.replace("Total Physical Read Requests:         366,729",
                                  f"Total Physical Read Requests:   {listed + 100:>12,}")

        snapshot = _snapshot(edited, "r.txt")

        self.assertEqual(snapshot.unlisted_read_requests_bound, 100)


class OverflowBoundTests(unittest.TestCase):
    def test_a_figure_printed_as_hashes_keeps_the_bound_the_notes_give(self) -> None:
        document = sample_bytes(TEXT_12C).decode().replace("     142581        1,406", "     142581      #######", 1)

        stat = _stat(_snapshot(document, "r.txt"), "DBPLUS_REP", "DBPLUS_TAB4")

        # %Total .38 of 366,729 and the row above: at most 1,411 (the run's note says the same)
        self.assertIsNone(stat.physical_read_requests)
        self.assertEqual(stat.read_requests_bound, 1411)
