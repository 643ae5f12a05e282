"""Names in AWR reports: longer than Oracle allows is refused (issue 15 items 6 and 11)."""

from __future__ import annotations

import unittest

from tests.targets.awr_report.samples import RefusalAssertions, sample_bytes

HTML_11G = "pcambell__awrrptanalyzor__awrrpt__11g__awrrpt_1_36006_36007.html"
#: The first row naming T_ONLINE_USER ("Segments by Logical Reads") is on this line of the file.
FIRST_ROW_LINE = 2968


class LongNameTests(RefusalAssertions, unittest.TestCase):
    def test_it_refuses_a_name_of_more_than_128_bytes_naming_file_and_row_line(self) -> None:
        # 100 characters, 200 bytes in UTF-8: Oracle's limit is 128 bytes (12.2 on)
        long_name = "É" * 100
        data = sample_bytes(HTML_11G).replace(b">T_ONLINE_USER<", f">{long_name}<".encode(), 1)

        error = self.assert_refused(data, "object name", "200 bytes", "128 bytes", filename="long.html")

        self.assertEqual(error.line, FIRST_ROW_LINE)

    def test_it_names_the_line_of_the_row_for_a_name_of_129_characters(self) -> None:
        data = sample_bytes(HTML_11G).replace(b">T_ONLINE_USER<", b">" + b"X" * 129 + b"<", 1)

        error = self.assert_refused(data, "object name", "129 characters", filename="long.html")

        self.assertIn(f"long.html, line {FIRST_ROW_LINE}:", str(error))

    def test_it_accepts_a_name_of_exactly_128_bytes(self) -> None:
        from apps.targets.awr_report import parse_report

        data = sample_bytes(HTML_11G).replace(b">T_ONLINE_USER<", b">" + b"X" * 128 + b"<")

        report = parse_report(data, filename="ok.html")

        self.assertIn("X" * 128, {segment.object_name for segment in report.segments})


TEXT_11G = "1newstar__awr2csv__sample__awr_11204_1.txt"
HTML_11G_TWIN = "1newstar__awr2csv__sample__awr_11204_1.html"


def _segments(name: str):
    from apps.targets.awr_report import parse_report

    return parse_report(sample_bytes(name), filename=name).segments


class TruncatedNameTests(unittest.TestCase):
    """Issue 15 item 6: text reports cut names to their column; such names are marked, never taken as real."""

    def test_it_marks_names_that_fill_their_column_as_cut(self) -> None:
        by_name = {(s.object_name, s.subobject_name): s for s in _segments(TEXT_11G)}

        # Object cut at 20 characters, subobject to its last 10 (WRH$_LATCH__1380142923_0 in the HTML twin)
        cut = by_name[("WRH$_LATCH_MISSES_SU", "80142923_0")]
        self.assertTrue(cut.name_truncated)
        self.assertEqual(cut.truncated_fields, ("object_name", "subobject_name"))
        self.assertFalse(by_name[("KOTAD$", "")].name_truncated)
        self.assertEqual(sum(1 for s in by_name.values() if s.name_truncated), 11)

    def test_it_marks_nothing_in_the_html_report_of_the_same_snapshots(self) -> None:
        self.assertFalse(any(s.name_truncated for s in _segments(HTML_11G_TWIN)))

    def test_the_row_contract_carries_the_mark(self) -> None:
        from apps.targets.awr_report import parse_report
        from apps.targets.awr_report.source import report_to_collection

        collection = report_to_collection(parse_report(sample_bytes(TEXT_11G), filename=TEXT_11G))
        (snapshot,) = collection.snapshots
        marked = {s.key.object_name for s in snapshot.segment_stats if s.name_truncated}
        self.assertIn("WRH$_LATCH_MISSES_SU", marked)
        self.assertNotIn("KOTAD$", marked)
        self.assertTrue(any("11 segment names are cut" in note for note in collection.notes))


class ResolveTruncatedNameTests(unittest.TestCase):
    def _report(self):
        from apps.targets.awr_report import parse_report

        return parse_report(sample_bytes(TEXT_11G), filename=TEXT_11G)

    def test_it_completes_a_cut_name_that_exactly_one_full_name_fits(self) -> None:
        from apps.targets.awr_report.names import FullName, resolve_truncated_names

        known = [FullName(s.owner, s.object_name, s.subobject_name, s.tablespace_name) for s in _segments(HTML_11G_TWIN)]

        report, resolved = resolve_truncated_names(self._report(), known)

        self.assertEqual(resolved, 11)
        names = {(s.object_name, s.subobject_name) for s in report.segments}
        self.assertIn(("WRH$_LATCH_MISSES_SUMMARY_PK", "WRH$_LATCH__1380142923_0"), names)
        self.assertNotIn(("WRH$_LATCH_MISSES_SU", "80142923_0"), names)
        self.assertFalse(any(s.name_truncated for s in report.segments))

    def test_it_leaves_a_cut_name_that_two_full_names_fit_marked(self) -> None:
        from apps.targets.awr_report.names import FullName, resolve_truncated_names

        known = [FullName("SYS", "WRH$_LATCH_MISSES_SUMMARY_PK", "WRH$_LATCH__1380142923_0"),
                 FullName("SYS", "WRH$_LATCH_MISSES_SUMMARY_PK", "WRH$_LATCH__9980142923_0")]

        report, resolved = resolve_truncated_names(self._report(), known)

        self.assertEqual(resolved, 0)
        (cut,) = [s for s in report.segments if s.object_name == "WRH$_LATCH_MISSES_SU"]
        self.assertTrue(cut.name_truncated)

    def test_it_does_not_complete_a_name_that_was_not_cut(self) -> None:
        from apps.targets.awr_report.names import FullName, resolve_truncated_names

        report, resolved = resolve_truncated_names(self._report(), [FullName("SYS", "KOTAD$_LONGER", "")])

        self.assertEqual(resolved, 0)
        self.assertIn("KOTAD$", {s.object_name for s in report.segments})
