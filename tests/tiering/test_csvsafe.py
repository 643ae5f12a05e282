from __future__ import annotations

import csv
import io
import subprocess
import sys
import unittest
from decimal import Decimal
from pathlib import Path

from apps.tiering.csvsafe import FORMULA_TRIGGERS, neutralise, write_rows

ROOT = Path(__file__).resolve().parents[2]


class NeutraliseTests(unittest.TestCase):
    def test_it_prefixes_every_owasp_trigger(self) -> None:
        for trigger in ("=", "+", "-", "@", "\t", "\r"):
            with self.subTest(trigger=repr(trigger)):
                self.assertEqual(neutralise(trigger + "HYPERLINK(1)"), "'" + trigger + "HYPERLINK(1)")

    def test_it_prefixes_a_formula_after_leading_spaces(self) -> None:
        self.assertEqual(neutralise("  =1+1"), "'  =1+1")

    def test_it_prefixes_full_width_triggers(self) -> None:
        self.assertEqual(neutralise("\uff1dSUM(A1)"), "'\uff1dSUM(A1)")
        self.assertIn("\uff20", FORMULA_TRIGGERS)

    def test_it_leaves_ordinary_names_alone(self) -> None:
        for text in ("ORDERS", "Order Lines", "SYS_LOB0000012345C00004$$", "a=b", "x-1", ""):
            with self.subTest(text=text):
                self.assertEqual(neutralise(text), text)

    def test_it_keeps_negative_numbers_as_numbers(self) -> None:
        self.assertEqual(neutralise(-12.5), "-12.5")
        self.assertEqual(neutralise(-3), "-3")
        self.assertEqual(neutralise(Decimal("-1234.50")), "-1234.50")

    def test_it_neutralises_number_looking_strings(self) -> None:
        # Strings have unknown origin; only real numbers are exempt.
        self.assertEqual(neutralise("-12.5"), "'-12.5")
        self.assertEqual(neutralise("+1"), "'+1")

    def test_it_writes_decimals_without_exponent(self) -> None:
        self.assertEqual(neutralise(Decimal("1E+3")), "1000")

    def test_it_blanks_none_and_non_finite_numbers(self) -> None:
        self.assertEqual(neutralise(None), "")
        self.assertEqual(neutralise(float("-inf")), "")
        self.assertEqual(neutralise(float("nan")), "")
        self.assertEqual(neutralise(Decimal("NaN")), "")

    def test_it_spells_booleans(self) -> None:
        self.assertEqual(neutralise(True), "true")
        self.assertEqual(neutralise(False), "false")

    def test_it_neutralises_other_objects_by_their_text(self) -> None:
        class Name:
            def __str__(self) -> str:
                return "@cmd"

        self.assertEqual(neutralise(Name()), "'@cmd")


class WriteRowsTests(unittest.TestCase):
    def test_it_writes_header_and_rows_neutralised(self) -> None:
        out = io.StringIO(newline="")
        count = write_rows(
            out,
            ["segment", "savings"],
            [["=cmd|' /C calc'!A0", Decimal("-250.00")], ["ORDERS", 12]],
        )
        self.assertEqual(count, 2)
        parsed = list(csv.reader(io.StringIO(out.getvalue())))
        self.assertEqual(
            parsed,
            [["segment", "savings"], ["'=cmd|' /C calc'!A0", "-250.00"], ["ORDERS", "12"]],
        )

    def test_it_quotes_commas_quotes_and_newlines(self) -> None:
        out = io.StringIO(newline="")
        write_rows(out, ["name"], [['a,"b"\nc']])
        self.assertEqual(out.getvalue(), 'name\r\n"a,""b""\nc"\r\n')

    def test_it_neutralises_the_header_too(self) -> None:
        out = io.StringIO(newline="")
        write_rows(out, ["-x"], [])
        self.assertEqual(out.getvalue(), "'-x\r\n")

    def test_it_rejects_a_short_row_before_writing_anything(self) -> None:
        out = io.StringIO(newline="")
        with self.assertRaisesRegex(ValueError, r"row 2 has 1 cells but the header has 2"):
            write_rows(out, ["a", "b"], [[1, 2], [3]])
        self.assertEqual(out.getvalue(), "")

    def test_it_rejects_an_empty_header(self) -> None:
        with self.assertRaisesRegex(ValueError, "header is empty"):
            write_rows(io.StringIO(), [], [])

    def test_it_accepts_a_generator_of_rows(self) -> None:
        out = io.StringIO(newline="")
        count = write_rows(out, ["n"], ([n] for n in range(3)))
        self.assertEqual(count, 3)


class PurityTests(unittest.TestCase):
    def test_it_loads_no_django_module(self) -> None:
        code = (
            "import sys\n"
            "import apps.tiering.csvsafe, apps.tiering.ddl, apps.tiering.rules\n"
            "loaded = sorted(m for m in sys.modules if m == 'django' or m.startswith('django.'))\n"
            "print(','.join(loaded))\n"
        )
        result = subprocess.run(
            [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
        )
        self.assertEqual(result.stdout.strip(), "")
