"""Reports that yield nothing (issue 15, item 4): refused with a message, or unwrapped and read."""

from __future__ import annotations

import unittest

from apps.targets.awr_report import AwrReport, parse_report
from tests.targets.awr_report.samples import (
    HTML_11G,
    HTML_12C_RAC,
    HTML_19C,
    HTML_GLOBAL,
    TEXT_11G,
    TEXT_12C,
    WITHOUT_SEGMENTS,
    sample_bytes,
)
from tests.targets.awr_report.spooled import sqlplus_wrap


def _without_segment_sections(document: str) -> str:
    """A text report with every "Segments by ..." section cut out (up to the next section's title)."""
    lines = document.split("\n")
    kept: list[str] = []
    skipping = False
    for line in lines:
        if "DB/Inst:" in line and "Snaps:" in line:
            skipping = line.lstrip("\f").startswith("Segments by")
        if not skipping:
            kept.append(line)
    return "\n".join(kept)


def _figures(report: AwrReport) -> list[dict[str, object]]:
    return [segment.to_json_dict() for segment in report.segments]


class NoSegmentSectionsTests(unittest.TestCase):
    """A report without segment figures is read with a warning first among its notes (the run keeps it, the
    target page shows it), never silently with 0 segments."""

    def assert_warned_for_no_segments(self, data: bytes | str, filename: str) -> AwrReport:
        report = parse_report(data, filename=filename)
        self.assertEqual(report.segments, ())
        warning = report.notes[0]
        self.assertNotIn("\n", warning)
        self.assertTrue(warning.startswith("Warning: no segment figures in this report"), warning)
        self.assertIn("no 'Segments by ...' sections", warning)
        self.assertIn("awrrpt.sql", warning)  # what the DBA can do
        return report

    def test_it_warns_for_real_html_reports_without_segment_sections(self) -> None:
        for name in WITHOUT_SEGMENTS:
            with self.subTest(name):
                self.assert_warned_for_no_segments(sample_bytes(name), name)

    def test_it_warns_for_a_text_report_without_segment_sections(self) -> None:
        for name in (TEXT_11G, TEXT_12C):
            with self.subTest(name):
                document = _without_segment_sections(sample_bytes(name).decode("utf-8"))
                self.assertNotIn("Segments by Physical", document)
                self.assert_warned_for_no_segments(document, "cut.txt")

    def test_it_keeps_what_the_report_has(self) -> None:
        report = self.assert_warned_for_no_segments(sample_bytes(WITHOUT_SEGMENTS[2]), "r.html")
        self.assertEqual((report.begin_snap, report.end_snap), (56288, 56289))

    def test_a_report_with_segments_has_no_such_warning(self) -> None:
        report = parse_report(sample_bytes(TEXT_12C), filename="r.txt")
        self.assertGreater(len(report.segments), 0)
        self.assertFalse(any(note.startswith("Warning: no segment figures") for note in report.notes))


class HardWrappedHtmlTests(unittest.TestCase):
    def test_the_helper_wraps_as_sqlplus_does(self) -> None:
        wrapped = sqlplus_wrap(sample_bytes(HTML_12C_RAC).decode("utf-8"))
        self.assertLessEqual(max(len(line) for line in wrapped.split("\n")), 132)
        self.assertTrue(any(line.rfind("<") > line.rfind(">") for line in wrapped.split("\n")))  # tags cut
        self.assertEqual(wrapped.replace("\n", ""), sample_bytes(HTML_12C_RAC).decode("utf-8").replace("\n", ""))

    def test_it_reads_a_report_wrapped_at_132_columns_like_the_original(self) -> None:
        for name in (HTML_11G, HTML_12C_RAC, HTML_19C, HTML_GLOBAL):
            with self.subTest(name):
                document = sample_bytes(name).decode("utf-8")
                original = parse_report(document, filename=name)
                wrapped = parse_report(sqlplus_wrap(document), filename=name)
                self.assertGreater(len(original.segments), 0)
                self.assertEqual(_figures(wrapped), _figures(original))
                self.assertEqual(wrapped.release, original.release)
                self.assertEqual(wrapped.tablespaces, original.tablespaces)
                self.assertEqual(wrapped.sysstat, original.sysstat)

    def test_it_reads_a_report_wrapped_at_another_width(self) -> None:
        document = sample_bytes(HTML_11G).decode("utf-8")
        original = parse_report(document, filename="r.html")
        for width in (80, 100, 255):
            with self.subTest(width=width):
                wrapped = parse_report(sqlplus_wrap(document, width), filename="r.html")
                self.assertEqual(_figures(wrapped), _figures(original))

    def test_it_reads_a_wrapped_report_spooled_on_windows(self) -> None:
        document = sample_bytes(HTML_11G).decode("utf-8")
        original = parse_report(document, filename="r.html")
        wrapped = sqlplus_wrap(document).replace("\n", "\r\n")
        self.assertEqual(_figures(parse_report(wrapped, filename="r.html")), _figures(original))
