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
