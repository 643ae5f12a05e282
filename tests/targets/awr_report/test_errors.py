"""Bad input: every failure is one AwrReportError naming the file and what is wrong."""

from __future__ import annotations

import unittest

from apps.targets.awr_report import MAX_REPORT_BYTES, parse_report
from tests.targets.awr_report.samples import RefusalAssertions, sample_bytes

HTML_11G = "pcambell__awrrptanalyzor__awrrpt__11g__awrrpt_1_36006_36007.html"
TEXT_12C = "ora600pl__jas-min__awrrpt_1_2668_2669.txt"


class BadInputTests(RefusalAssertions, unittest.TestCase):

    def test_it_refuses_an_empty_file(self) -> None:
        self.assert_refused(b"", "empty file")
        self.assert_refused("  \n\n", "empty file")

    def test_it_refuses_binary_garbage(self) -> None:
        self.assert_refused(bytes(range(256)) * 40, "binary")

    def test_it_refuses_text_that_is_not_an_awr_report(self) -> None:
        self.assert_refused(b"hello\nworld\n", "not an AWR report", filename="notes.txt")

    def test_it_refuses_html_that_is_not_an_awr_report(self) -> None:
        self.assert_refused(b"<html><body><h1>Statspack</h1><table></table></body></html>", "not an AWR report")

    def test_it_refuses_a_report_over_the_size_limit(self) -> None:
        self.assert_refused(b" " * (MAX_REPORT_BYTES + 1), "bytes")

    def test_it_refuses_something_that_is_not_bytes_or_str(self) -> None:
        self.assert_refused(42, "expected bytes or str")  # type: ignore[arg-type]

    def test_it_refuses_a_release_before_10g(self) -> None:
        data = sample_bytes(HTML_11G).replace(b">11.2.0.4.0<", b">9.2.0.8.0<")
        self.assert_refused(data, "unsupported release 9.2.0.8.0")

    def test_it_refuses_an_unparseable_release(self) -> None:
        data = sample_bytes(HTML_11G).replace(b">11.2.0.4.0<", b">eleven<")
        self.assert_refused(data, "unparseable release 'eleven'")

    def test_it_refuses_a_header_without_snapshots(self) -> None:
        data = sample_bytes(TEXT_12C).replace(b"  End Snap:", b"  Fin Snap:")
        error = self.assert_refused(data, "End Snap", filename="t.txt")
        self.assertEqual(error.line, 2)

    def test_it_refuses_a_text_report_cut_inside_the_segment_statistics(self) -> None:
        lines = sample_bytes(TEXT_12C).splitlines(keepends=True)
        cut = next(i for i, line in enumerate(lines) if line.startswith(b"Segments by Physical Writes")) + 14
        # Lines are counted from 1; the last kept line is number `cut`.
        self.assert_refused(
            b"".join(lines[:cut]), "truncated", "'Segments by Physical Writes'", f"t.txt, line {cut}:", filename="t.txt"
        )

    def test_it_refuses_an_html_report_cut_before_the_segment_statistics(self) -> None:
        data = sample_bytes(HTML_11G)
        cut = data.index(b"Tablespace IO Stats</h3>") + 600
        self.assert_refused(data[:cut], "truncated", "before the Segment Statistics")

    def test_it_accepts_a_report_cut_after_the_segment_statistics(self) -> None:
        data = sample_bytes(HTML_11G)
        cut = data.index(b"Dictionary Cache Stats</h3>") + 100
        report = parse_report(data[:cut], filename="cut.html")
        self.assertEqual(
            report.to_json_dict()["segments"], parse_report(data).to_json_dict()["segments"]
        )

    def test_it_refuses_a_global_text_report_cut_in_its_header(self) -> None:
        # Global text reports are read (test_global_text.py); one that stops in its header is truncated
        self.assert_refused(
            b"\nWORKLOAD REPOSITORY REPORT (RAC)\n\nDatabase Summary\n", "truncated", "report header", filename="g.txt"
        )
