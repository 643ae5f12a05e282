"""CSV export that spreadsheet programs cannot turn into formulas.

A cell that starts with ``=``, ``+``, ``-`` or ``@`` (or a tab or carriage
return) is read as a formula by Excel, LibreOffice and Google Sheets: a
segment or tablespace name such as ``=HYPERLINK(...)`` coming from a target
database would run when a DBA opens the export. OWASP's "CSV Injection"
guidance is to prefix such cells with a single quote, which the spreadsheet
shows as text.

Decision on numbers: the export passes its own figures (IOPS, GB, savings that
may be negative) as ``int``, ``float`` or ``Decimal``, never as ``str``. Only
``str`` cells are neutralised; numbers are written as numbers, so ``-12.5``
stays a number a spreadsheet can sum. A *string* that looks like a number is
still neutralised: its origin is unknown (a name, a hint read from Oracle), and
a numeric-looking regex exemption is exactly where bypasses hide. Callers must
therefore keep numbers as numbers until this module formats them.

Pure: standard library only.
"""

from __future__ import annotations

import csv
import math
from collections.abc import Iterable, Sequence
from decimal import Decimal
from typing import IO

#: First characters that make a spreadsheet evaluate a cell (OWASP list), plus
#: their full-width forms, which some spreadsheet locales fold to ASCII.
FORMULA_TRIGGERS: frozenset[str] = frozenset("=+-@\t\r" + "\uff1d\uff0b\uff0d\uff20")


def neutralise(cell: object) -> str:
    """Return ``cell`` as CSV text that no spreadsheet evaluates.

    ``None`` becomes ``""``; ``int``/``float``/``Decimal`` are formatted as
    plain numbers and never prefixed; every other value is turned into ``str``
    and prefixed with ``'`` when its first character (after leading spaces)
    is a formula trigger.

    >>> neutralise("=1+1")
    "'=1+1"
    >>> neutralise(-12.5)
    '-12.5'
    >>> neutralise("-12.5")
    "'-12.5"
    """
    if cell is None:
        return ""
    if isinstance(cell, bool):
        # bool is an int subclass; spell it out rather than write 1/0.
        return "true" if cell else "false"
    if isinstance(cell, (int, float, Decimal)):
        return _format_number(cell)
    text = str(cell)
    first = text.lstrip(" ")[:1]
    if first and first in FORMULA_TRIGGERS:
        return "'" + text
    return text


def _format_number(number: int | float | Decimal) -> str:
    if isinstance(number, Decimal):
        if not number.is_finite():
            return ""
        # "f" avoids exponent notation (Decimal('1E+3') -> "1000").
        return format(number, "f")
    if isinstance(number, float) and not math.isfinite(number):
        # NaN/inf carry no value for a DBA and "-inf" would start with "-".
        return ""
    return repr(number) if isinstance(number, float) else str(number)


def write_rows(
    fileobj: IO[str],
    header: Sequence[str],
    rows: Iterable[Sequence[object]],
    *,
    with_header: bool = True,
) -> int:
    """Write ``header`` then ``rows`` to ``fileobj`` as neutralised CSV.

    ``fileobj`` is a text file opened with ``newline=""`` (as the csv module
    requires). Every row must have as many cells as the header; a row that
    does not raises ``ValueError`` naming its number (1 = first data row).
    ``with_header=False`` writes the rows alone (a later part of a file
    written in parts). Returns the number of data rows written.
    """
    if not header:
        raise ValueError("write_rows: the header is empty; a CSV export needs named columns")
    # Check every row before writing any, so a bad row leaves no half-written file.
    checked = [list(row) for row in rows]
    for number, row in enumerate(checked, start=1):
        if len(row) != len(header):
            raise ValueError(
                f"write_rows: row {number} has {len(row)} cells but the header has "
                f"{len(header)} ({', '.join(header)})"
            )
    writer = csv.writer(fileobj, dialect="excel")
    if with_header:
        writer.writerow([neutralise(name) for name in header])
    writer.writerows([neutralise(cell) for cell in row] for row in checked)
    return len(checked)
