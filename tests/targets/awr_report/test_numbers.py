"""Numbers as Oracle prints them in AWR reports."""

from __future__ import annotations

import datetime as dt
import doctest
import unittest

from apps.targets.awr_report import numbers
from apps.targets.awr_report.numbers import parse_count, parse_number, parse_report_time


class NumberTests(unittest.TestCase):
    def test_it_reads_every_printed_form(self) -> None:
        cases = {
            "1,234.5": 1234.5,
            "12.3K": 12300.0,
            "4.5M": 4_500_000.0,
            "1.2G": 1_200_000_000.0,
            "-74.60": -74.6,
            "-.1": -0.1,
            ".38": 0.38,
            "1.298993073E+11": 129_899_307_300.0,
            " 1,648 ": 1648.0,
        }
        for text, value in cases.items():
            with self.subTest(text):
                self.assertAlmostEqual(parse_number(text), value)

    def test_it_gives_none_for_blanks_and_overflow_marks(self) -> None:
        for text in ("", "   ", "\xa0", "###", "#######", "N/A", "1e999", "12,3x"):
            with self.subTest(text):
                self.assertIsNone(parse_number(text))

    def test_it_rounds_counts(self) -> None:
        self.assertEqual(parse_count("2144.8K"), 2_144_800)
        self.assertEqual(parse_count("63,431,392"), 63_431_392)

    def test_it_reads_report_times(self) -> None:
        self.assertEqual(parse_report_time("12-Dec-23 17:00:31"), dt.datetime(2023, 12, 12, 17, 0, 31))
        self.assertEqual(parse_report_time("11-Dec-22 04:22"), dt.datetime(2022, 12, 11, 4, 22))
        self.assertIsNone(parse_report_time("31-Feb-23 00:00"))

    def test_it_keeps_its_docstring_examples_true(self) -> None:
        self.assertEqual(doctest.testmod(numbers).failed, 0)
