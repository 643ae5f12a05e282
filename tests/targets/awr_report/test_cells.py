"""Strict number cells (issue 15, item 3): a typo refuses the report, Oracle's ``#####`` is unknown.

Fixtures are real samples with one cell edited; the edited cells and their
neighbours were read off the reports.
"""

from __future__ import annotations

import unittest

from apps.targets.awr_report import AwrReport, parse_report
from apps.targets.awr_report.source import report_to_collection
from tests.targets.awr_report.samples import RefusalAssertions, sample_bytes

HTML_11G = "pcambell__awrrptanalyzor__awrrpt__11g__awrrpt_1_36006_36007.html"
HTML_19C = "Lucky29011__reports__awr.html"
TEXT_11G = "1newstar__awr2csv__sample__awr_11204_1.txt"
TEXT_12C = "ora600pl__jas-min__awrrpt_1_2668_2669.txt"


def _edit(name: str, old: str, new: str, *, occurrence: int = 1) -> str:
    """The sample with its ``occurrence``-th ``old`` replaced by ``new`` (same width in text reports)."""
    document = sample_bytes(name).decode("utf-8", errors="replace")
    at = -1
    for _ in range(occurrence):
        at = document.index(old, at + 1)
    return document[:at] + new + document[at + len(old) :]


def _line_of(document: str, fragment: str) -> int:
    return document[: document.index(fragment)].count("\n") + 1


def _segment(report: AwrReport, owner: str, obj: str) -> dict[str, int | None]:
    matches = [s for s in report.segments if (s.owner, s.object_name) == (owner, obj)]
    assert len(matches) == 1, f"{owner}.{obj}: {len(matches)} matches"
    return matches[0].stats


class BadCellTests(RefusalAssertions, unittest.TestCase):
    def test_it_refuses_a_typo_in_an_html_segment_figure(self) -> None:
        document = _edit(HTML_11G, ">2,040,761<", ">2,04O,761<")
        line = _line_of(document, "2,04O,761")
        self.assert_refused(
            document, f"line {line}", "'Segments by Physical Read Requests'", "row 1",
            "'Phys Read Requests'", "'2,04O,761'", filename="r.html",
        )

    def test_it_refuses_a_typo_in_a_text_segment_figure(self) -> None:
        # 12.2 text: the figure is on the record's second line.
        document = _edit(TEXT_12C, "     142581        1,406", "     142581        1,4O6")
        line = _line_of(document, "1,4O6")
        self.assert_refused(
            document, f"r.txt, line {line}:", "'Segments by Physical Read Requests'",
            "'Phys Read Requests'", "'1,4O6'", filename="r.txt",
        )

    def test_it_refuses_a_typo_in_a_tablespace_figure(self) -> None:
        # 11.2 text prints a tablespace's figures on the line below its name.
        document = _edit(TEXT_11G, "     39       0     3.3     1.0     348", "     3x       0     3.3     1.0     348")
        self.assert_refused(document, f"r.txt, line {_line_of(document, '     3x ')}:",
                            "'Tablespace IO Stats'", "'Reads'", "'3x'", filename="r.txt")

    def test_it_still_reads_blank_and_no_data_cells_of_every_sample(self) -> None:
        # The strict check must not refuse what real reports print (blanks, "No data exists ...").
        for name in (HTML_11G, HTML_19C, TEXT_11G, TEXT_12C):
            with self.subTest(name):
                self.assertGreater(len(parse_report(sample_bytes(name), filename=name).segments), 0)


class OverflowTests(unittest.TestCase):
    def test_it_reads_a_text_overflow_mark_as_unknown(self) -> None:
        document = _edit(TEXT_12C, "     142581        1,406", "     142581      #######")
        report = parse_report(document, filename="r.txt")
        stats = _segment(report, "DBPLUS_REP", "DBPLUS_TAB4")
        # Unknown, not dropped and not 0; the other figures of the report are untouched.
        self.assertIn("physical_read_requests", stats)
        self.assertIsNone(stats["physical_read_requests"])
        self.assertEqual(_segment(report, "BAZA_BPSC", "SYS_LOB0000104009C00")["physical_read_requests"], 1032)

    def test_it_notes_the_segment_the_column_and_the_bound(self) -> None:
        document = _edit(TEXT_12C, "     142581        1,406", "     142581      #######")
        report = parse_report(document, filename="r.txt")
        line = _line_of(document, "#######")
        [note] = [note for note in report.notes if "DBPLUS_TAB4" in note]
        for fragment in ("DBPLUS_REP.DBPLUS_TAB4", "'Phys Read Requests'", "'Segments by Physical Read Requests'",
                         f"line {line}", "unknown", "#######"):
            self.assertIn(fragment, note)
        # Bounds: the row below lists 1,032; %Total .38 of the section's 366,729 puts it in 1,376..1,411.
        self.assertIn("at least 1,376", note)
        self.assertIn("at most 1,411", note)

    def test_it_bounds_an_overflow_by_the_rows_around_it(self) -> None:
        # 11.2 text, Physical Read Requests' second row, its %Total blanked too: 6 (IDL_UB2$) lies between
        # KOTAD$'s 7 above and the 3 below.
        document = _edit(TEXT_11G, "IDL_UB2$                        TABLE            6    8.82",
                         "IDL_UB2$                        TABLE        #####        ", occurrence=2)
        report = parse_report(document, filename="r.txt")
        self.assertIsNone(_segment(report, "SYS", "IDL_UB2$")["physical_read_requests"])
        [note] = [note for note in report.notes if "IDL_UB2$" in note and "Phys Read" in note]
        self.assertIn("at least 3", note)
        self.assertIn("at most 7", note)

    def test_it_carries_the_unknown_and_its_note_to_the_collection(self) -> None:
        document = _edit(TEXT_12C, "     142581        1,406", "     142581      #######")
        collection = report_to_collection(parse_report(document, filename="r.txt"))
        [stat] = [s for s in collection.snapshots[0].segment_stats if s.key.object_name == "DBPLUS_TAB4"]
        self.assertIsNone(stat.physical_read_requests)
        self.assertTrue(any("DBPLUS_TAB4" in note and "unknown" in note for note in collection.notes))

    def test_it_reads_an_html_overflow_mark_as_unknown(self) -> None:
        document = _edit(HTML_11G, ">55,619<", ">#####<")
        report = parse_report(document, filename="r.html")
        self.assertIsNone(_segment(report, "IDC_U_UNIAUTH", "SYS_LOB0000092764C00009$$")["physical_read_requests"])
        [note] = [note for note in report.notes if "SYS_LOB0000092764C00009$$" in note]
        self.assertIn("row 2", note)
        # %Total 1.36 of the section's 4,084,013 (the rows around it give 9,713..2,040,761).
        self.assertIn("at least 55,339", note)
        self.assertIn("at most 55,746", note)

    def test_it_notes_nothing_for_a_clean_report(self) -> None:
        for name in (HTML_11G, TEXT_12C):
            with self.subTest(name):
                report = parse_report(sample_bytes(name), filename=name)
                self.assertEqual(report.notes, ())
