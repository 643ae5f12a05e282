"""Every segment section of a report is read, or named in the report's notes as passed over: never skipped
in silence (a section passed over leaves the segments it lists "not measured" for its statistic)."""

from __future__ import annotations

import re
import unittest

from apps.targets.awr_report import AwrReport, parse_report
from apps.targets.awr_report import html as html_reader
from apps.targets.awr_report import text as text_reader
from apps.targets.awr_report.parser import decode_report
from apps.targets.awr_report.sections import normalize, segment_statistic_for_section
from tests.targets.awr_report.samples import HTML_11G, TEXT_11G, replaced_after, sample_bytes, sample_paths

REQUESTS = ("physical_read_requests", "physical_write_requests", "physical_reads_direct", "physical_writes_direct")


def _segment_titles(document: str, *, is_text: bool) -> list[str]:
    if is_text:
        return [s.title for s in text_reader.split_sections(document.replace("\r\n", "\n").split("\n"))]
    return [s.title for s in html_reader.split_sections(document)]


def _read_statistics(report: AwrReport) -> set[str]:
    return set(report.unlisted_bounds) | {name for segment in report.segments for name in segment.stats}


def _requests(report: AwrReport) -> dict[tuple[str, ...], dict[str, int | None]]:
    return {
        (s.owner, s.tablespace_name, s.object_name, s.subobject_name, s.object_type):
            {name: s.stats[name] for name in REQUESTS if name in s.stats}
        for s in report.segments
    }


class RunOnTitleTests(unittest.TestCase):
    def test_it_reads_a_section_title_run_into_its_db_inst_with_no_space(self) -> None:
        # 11.2.0.3 prints "Segments by Physical Read RequestsDB/Inst: ORCL/orcl1  Snaps: 2-3" when the title
        # fills its column; those sections were passed over and their segments came out not measured.
        original = sample_bytes(TEXT_11G).decode()
        squeezed = re.sub(r"[ \t]+DB/Inst:", "DB/Inst:", original)
        self.assertIn("Segments by Physical Read RequestsDB/Inst: ORCL/orcl1  Snaps: 2-3", squeezed)

        expected = parse_report(original, filename=TEXT_11G)
        report = parse_report(squeezed, filename=TEXT_11G)

        self.assertEqual(_requests(report), _requests(expected))
        self.assertEqual(sum(len(stats) for stats in _requests(report).values()), 11)
        self.assertEqual(report.unlisted_bounds, expected.unlisted_bounds)
        self.assertEqual(report.to_json_dict(), expected.to_json_dict())


class EverySectionReadOrNamedTests(unittest.TestCase):
    def test_every_segments_by_section_of_every_sample_is_read_or_named_in_the_notes(self) -> None:
        paths = sample_paths()
        self.assertEqual(len(paths), 19)
        for path in paths:
            with self.subTest(path.name):
                document = decode_report(path.read_bytes())
                report = parse_report(document, filename=path.name)
                read = _read_statistics(report)
                for title in _segment_titles(document, is_text=path.suffix == ".txt"):
                    if not normalize(title).startswith("segments by"):
                        continue
                    named = any(repr(title) in note for note in report.notes)
                    self.assertTrue(segment_statistic_for_section(title) in read or named, title)


class PassedOverSectionTests(unittest.TestCase):
    def _notes_naming(self, report: AwrReport, title: str) -> list[str]:
        return [note for note in report.notes if repr(title) in note]

    def test_it_names_a_section_whose_statistic_it_does_not_know(self) -> None:
        data = sample_bytes(TEXT_11G).replace(b"Segments by DB Blocks Changes", b"Segments by Chained Rows     ", 1)

        report = parse_report(data, filename=TEXT_11G)

        (note,) = self._notes_naming(report, "Segments by Chained Rows")
        self.assertTrue(note.startswith("Warning: "), note)
        self.assertIn("statistic tierscope does not know", note)
        self.assertIn(TEXT_11G, note)

    def test_it_names_a_text_section_whose_title_line_it_does_not_recognise(self) -> None:
        original = sample_bytes(TEXT_11G).decode()
        line = next(line for line in original.split("\n") if line.startswith("Segments by Physical Writes"))
        data = original.replace(line, line.replace("Snaps: 2-3", "Snap: 3"), 1)

        report = parse_report(data, filename=TEXT_11G)

        (note,) = self._notes_naming(report, line.replace("Snaps: 2-3", "Snap: 3").strip())
        self.assertIn("passed over", note)
        self.assertIn(f"line {original.split(chr(10)).index(line) + 1}", note)
        self.assertNotIn("physical_writes", _read_statistics(report))

    def test_it_names_a_section_whose_columns_it_cannot_locate(self) -> None:
        cases = (  # report, where the section's title stands, its title, its owner heading renamed, its statistic
            (TEXT_11G, "Segments by DB Blocks Changes", "Segments by DB Blocks Changes", "\nOwner ", "\nSchema",
             "db_block_changes"),
            (HTML_11G, "Segments by Table Scans</h3>", "Segments by Table Scans", ">Owner<", ">Schema<", "table_scans"),
        )
        for name, where, title, owner, schema, statistic in cases:
            with self.subTest(report=name):
                data = replaced_after(sample_bytes(name).decode(), where, owner, schema)

                report = parse_report(data, filename=name)

                (note,) = self._notes_naming(report, title)
                self.assertIn("passed over", note)
                self.assertIn("Schema", note)
                self.assertNotIn(statistic, _read_statistics(report))

    def test_it_says_nothing_of_a_section_that_prints_no_data(self) -> None:
        # 'Segments by Optimized Reads' of this report says "No data exists for this section of the report."
        report = parse_report(sample_bytes(HTML_11G), filename=HTML_11G)

        self.assertEqual(self._notes_naming(report, "Segments by Optimized Reads"), [])
        self.assertIn("optimized_physical_reads", report.unlisted_bounds)


class GlobalStatisticTests(unittest.TestCase):
    def test_it_names_a_statistic_of_the_global_segment_table_it_does_not_know(self) -> None:
        name = "edwinjiang__dataextraction_found__beautifulsoap__awr_rac.html"
        data = sample_bytes(name).replace(b"<td class='awrc'>row lock waits</td>", b"<td class='awrc'>chain rows</td>", 1)

        report = parse_report(data, filename=name)

        (note,) = [note for note in report.notes if "'chain_rows'" in note]
        self.assertIn("'Segment Statistics (Global)'", note)
        self.assertIn("line 1613", note)
        self.assertFalse(any("does not know" in note for note in parse_report(sample_bytes(name)).notes))
