"""The export's fast cell formatter writes every cell exactly as csvsafe.neutralise does (formulas prefixed,
numbers as numbers, unknown values empty), and refuses a row that does not fit the header before writing."""

from __future__ import annotations

import enum
import io
from decimal import Decimal

import pytest

from apps.tiering.csvsafe import neutralise, write_rows
from apps.tiering.recommendations.export_cells import cells, csv_text


class Level(enum.IntEnum):
    HIGH = 3


class Name(str):
    pass


CELLS = [
    None, True, False, 0, -12, 10**20, 1.5, -12.5, 0.1 + 0.2, 1e-7, float("nan"), float("inf"), float("-inf"),
    Decimal("12.34"), Decimal("-0.01"), Decimal("1E+3"), Decimal("NaN"), Decimal("-Infinity"), "", "SOE",
    "=HYPERLINK(1)", "+1", "-12.5", "@SUM(A1)", "\tx", "\rx", "  =1", "\uff1d1", "\uff0b1", "\uff0d1", "\uff201",
    "a,b", 'say "x"', "line\nbreak", "2024-01-01T00:00:00+00:00", Level.HIGH, Name("=1"), Name("ok"),
]


@pytest.mark.parametrize("cell", CELLS, ids=repr)
def test_a_cell_is_written_as_neutralise_writes_it(cell):
    assert cells([cell]) == [neutralise(cell)]


def test_rows_are_written_as_csvsafe_writes_them():
    header = ("a", "=b", "c")
    rows = [(CELLS[i], CELLS[i + 1], CELLS[i + 2]) for i in range(len(CELLS) - 2)]
    buffer = io.StringIO()
    write_rows(buffer, header, rows)

    assert csv_text(header, rows, with_header=True) == buffer.getvalue()
    assert csv_text(header, rows[:1], with_header=False) == buffer.getvalue().split("\r\n", 1)[1].split("\r\n")[0] + "\r\n"


def test_a_row_that_does_not_fit_the_header_is_refused_naming_it():
    with pytest.raises(ValueError, match=r"row 2 has 1 cells but the header has 2 \(a, b\)"):
        csv_text(("a", "b"), [(1, 2), (3,)], with_header=True)
