"""Strict number cells: a figure is a number, Oracle's overflow mark, or a refusal.

A cell that should hold a count and holds anything else (``2,04O,761``) refuses
the whole report: a typo read as "absent" would silently turn a measured
segment into an unmeasured one. ``#####`` is different: Oracle prints it when a
figure is too wide for its column (text reports), so the value exists but is not
shown. It is read as *unknown* (None, never 0) and noted; within a "Segments by"
section the rows are ordered by that figure, so the rows around it bound it, and
the row's %Total of the section's printed total bounds it more tightly.
Pure: standard library only.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from apps.targets.awr_report.model import AwrReportError, SegmentFigure
from apps.targets.awr_report.numbers import parse_count, parse_number

N = TypeVar("N", int, float)

_OVERFLOW_RE = re.compile(r"^#+$")
# "-> Total Physical Read Requests:   366,729" (text) / "<li ...>Total Physical Reads: 1,234</li>" (HTML).
_SECTION_TOTAL_RE = re.compile(r"(?:^|[>\s])Total [^:<\n]{1,60}:\s*(?P<total>[\d,.]+[KMGTP]?)")
# %Total is printed with two decimals: the true share lies within half a hundredth of it.
_PERCENT_HALF_STEP = 0.005


class CellProblem(ValueError):
    """A cell that should hold a number does not; the reader adds where (file, section, line/row)."""

    def __init__(self, column: str, text: str) -> None:
        self.column = column
        self.text = text
        super().__init__(f"column {column!r} holds {text!r}, not a number")


def clean(text: str) -> str:
    return " ".join(text.replace("\xa0", " ").split())


def is_blank(text: str) -> bool:
    return not clean(text)


def is_overflow(text: str) -> bool:
    """True for Oracle's ``#####``: a figure too wide for its column.

    >>> is_overflow(" ##### ")
    True
    """
    return _OVERFLOW_RE.match(clean(text)) is not None


def strict_count(text: str, *, column: str) -> int | None:
    """The count a non-blank cell prints; None for the overflow mark; CellProblem otherwise.

    >>> strict_count("2,040,761", column="Reads")
    2040761
    >>> strict_count("#####", column="Reads") is None
    True
    """
    return _strict(parse_count, text, column=column)


def strict_number(text: str, *, column: str) -> float | None:
    """Like :func:`strict_count` for a decimal figure (an average in ms)."""
    return _strict(parse_number, text, column=column)


def _strict(parse: Callable[[str], N | None], text: str, *, column: str) -> N | None:
    if is_overflow(text):
        return None
    value = parse(text)
    if value is None:
        raise CellProblem(column, clean(text))
    return value


def refusal(problem: CellProblem, *, section: str, where: str, filename: str, line: int | None) -> AwrReportError:
    """The one-line refusal for a bad cell: file, line, section, row, column and the text."""
    row = f", {where}" if where else ""
    return AwrReportError(
        f"section {section!r}{row}: column {problem.column!r} holds {problem.text!r}, which is not a number "
        "(a figure was edited or damaged); nothing was imported",
        filename=filename, line=line,
    )


def section_total(text: str) -> int | None:
    """The section's printed total ("Total Physical Read Requests: 366,729"), None when it has none.

    >>> section_total("-> Total Physical Read Requests:         366,729")
    366729
    """
    match = _SECTION_TOTAL_RE.search(text)
    return parse_count(match.group("total")) if match else None


@dataclass(frozen=True)
class ListedRow:
    """One row of a "Segments by" section as listed (in the report's order), for bounding an overflow."""

    figure: SegmentFigure
    percent_total: float | None
    where: str  # "line 3317" (text) or "line 3000, row 2" (HTML)
    printed: str = ""  # the figure's cell as printed ("#####" for an unknown)


@dataclass(frozen=True)
class SectionListing:
    """The rows one "Segments by ..." section lists, in its order, and the total it prints (bounds.py).

    ``statistic`` is None for Segment Statistics (Global), whose rows each name their statistic.
    """

    statistic: str | None
    rows: tuple[ListedRow, ...]
    total: int | None = None


def overflow_notes(
    rows: Sequence[ListedRow], *, section: str, column: str, total: int | None, filename: str
) -> list[str]:
    """One note per unknown (overflowed) figure of a section, with the bounds the section gives."""
    return [
        _overflow_note(row, section=section, column=column, bounds=overflow_bounds(rows, index, total),
                       filename=filename)
        for index, row in enumerate(rows)
        if row.figure.value is None
    ]


def overflow_bounds(rows: Sequence[ListedRow], index: int, total: int | None) -> tuple[int | None, int | None]:
    """(lower, upper) bounds of the unknown figure of ``rows[index]``: the rows around it, tightened by its
    %Total of the section's ``total`` when both are printed."""
    row = rows[index]
    lower, upper = _neighbour_bounds(rows, index)
    if row.percent_total is not None and total is not None:
        share_low = max(row.percent_total - _PERCENT_HALF_STEP, 0.0)
        lower = max(lower or 0, math.ceil(share_low * total / 100))
        share_upper = math.floor((row.percent_total + _PERCENT_HALF_STEP) * total / 100)
        upper = share_upper if upper is None else min(upper, share_upper)
    return lower, upper


def total_at_most(rows: Sequence[ListedRow]) -> int | None:
    """An upper bound on the section's total from its rows' %Total (each printed to a hundredth), or None.

    A row of value v printed as p % says total <= v * 100 / (p - 0.005).
    """
    bounds = [
        math.floor(row.figure.value * 100 / (row.percent_total - _PERCENT_HALF_STEP))
        for row in rows
        if row.figure.value is not None and row.percent_total is not None and row.percent_total > _PERCENT_HALF_STEP
    ]
    return min(bounds) if bounds else None


def _neighbour_bounds(rows: Sequence[ListedRow], index: int) -> tuple[int | None, int | None]:
    """Rows are listed by the section's figure, largest first: the nearest known rows bound it."""
    statistic = rows[index].figure.statistic
    above = [r.figure.value for r in rows[:index] if r.figure.statistic == statistic and r.figure.value is not None]
    below = [r.figure.value for r in rows[index + 1 :] if r.figure.statistic == statistic and r.figure.value is not None]
    return (below[0] if below else None), (above[-1] if above else None)


def _overflow_note(
    row: ListedRow, *, section: str, column: str, bounds: tuple[int | None, int | None], filename: str
) -> str:
    figure = row.figure
    name = f"{figure.owner}.{figure.object_name}" + (f" ({figure.subobject_name})" if figure.subobject_name else "")
    lower, upper = bounds
    known = [f"at least {lower:,}" if lower is not None else "", f"at most {upper:,}" if upper is not None else ""]
    bound_text = " and ".join(part for part in known if part)
    bound = f"; from the same section it is {bound_text}" if bound_text else "; the report gives no bound"
    source = f"{filename}, " if filename else ""
    return (
        f"Warning: {source}{row.where}: {name} {column!r} in section {section!r} is printed as {row.printed or '#####'} (too wide for "
        f"its column): the figure is unknown and stored as NULL, not 0{bound}"
    )
