"""The table of a "Top Segments Comparison by <statistic>" section (awrddrpt.sql / awrddrpi.sql), HTML and text.

One row per segment: Owner, Tablespace, Object Name, Subobject Name, Type; then the grouped figures
"% of Total <statistic>" (1st, 1st Total (running), 2nd, 2nd Total (running), Diff), "<statistic>" (1st, 2nd,
%Diff) and "% of Captured <statistic>" (1st, 2nd, Diff). HTML prints the groups as a first header row with
colspans over a second row of 1st / 2nd / Diff; text prints each group's title over a dash line spanning its
columns. A figure printed N/A means no data was captured for the segment in that period: unknown (None, never
0), bounded like a segment the period's top list leaves out. The rows are the top N segments of each period
("Top N Segments from each period are compared"), so a segment listed nowhere did less, in a period, than that
period's N-th largest figure, and less than its total (from the rows' % of Total) less the listed figures.
Pure: standard library and lxml.
"""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

import lxml.html
from lxml import etree

from apps.targets.awr_report.cells import ListedRow, clean, is_blank, total_at_most
from apps.targets.awr_report.containers import container_column
from apps.targets.awr_report.model import SegmentFigure, check_names
from apps.targets.awr_report.numbers import parse_number
from apps.targets.awr_report.sections import SegmentColumns, listed_segment_rows, normalize
from apps.targets.awr_report.text import column_titles, dash_spans, is_dash_line, is_section_rule, slice_fields

_RUN_RE = re.compile(r"\S+(?: \S+)*")  # words with single spaces: one title in a heading line
_TOP_N_RE = re.compile(r"Top\s+(\d+)\s+Segments\s+from\s+each\s+period", re.IGNORECASE)
_IDENTITY: dict[str, str] = {
    "owner": "owner", "tablespace": "tablespace_name", "tablespace name": "tablespace_name",
    "object name": "object_name", "object": "object_name", "subobject name": "subobject_name",
    "subobject": "subobject_name", "type": "object_type", "obj. type": "object_type", "object type": "object_type",
}
_PERIOD_TITLES = ("1st", "2nd")
_MAX_SPAN = 64
#: (group title, column title) of each column.
Column = tuple[str, str]
Located = tuple[int | None, str, Sequence[str]]  # file line, "row k" or "", cells


@dataclass(frozen=True)
class CompareColumns:
    """Where the identity, each period's figure and each period's % of Total sit in a row."""

    identity: dict[str, int]
    values: tuple[int, int]
    percents: tuple[int | None, int | None]
    value_heading: str
    container: int | None = None

    @classmethod
    def from_columns(cls, columns: Sequence[Column]) -> CompareColumns | None:
        """Locate the columns; None when they are not a segment comparison table."""
        identity: dict[str, int] = {}
        values: list[int | None] = [None, None]
        percents: list[int | None] = [None, None]
        heading = ""
        for index, (group, title) in enumerate(columns):
            group_name, name = normalize(group), normalize(title)
            if not group_name or group_name == name:
                role = _IDENTITY.get(name)
                if role is not None:
                    identity.setdefault(role, index)
                continue
            if name not in _PERIOD_TITLES or group_name.startswith("% of capture"):
                continue
            period = _PERIOD_TITLES.index(name)
            if group_name.startswith("% of total"):
                percents[period] = percents[period] if percents[period] is not None else index
            elif values[period] is None:
                values[period], heading = index, clean(group)
        first, second = values
        if first is None or second is None or not {"owner", "object_name"} <= identity.keys():
            return None
        container = container_column([normalize(title) for _, title in columns])
        return cls(identity=identity, values=(first, second), percents=(percents[0], percents[1]),
                   value_heading=heading, container=container)

    def period(self, index: int) -> SegmentColumns:
        """The columns of one period, as an instance report's "Segments by" table has them."""
        return SegmentColumns(identity=self.identity, value=self.values[index],
                              value_heading=f"{self.value_heading} ({_PERIOD_TITLES[index]})",
                              percent_total=self.percents[index], container=self.container)


@dataclass
class PeriodRows:
    """One period's rows of one section: those with a figure (or #####), and those printed N/A."""

    listed: list[ListedRow] = field(default_factory=list)
    not_captured: list[SegmentFigure] = field(default_factory=list)


def read_rows(columns: CompareColumns, rows: Sequence[Located], statistic: str, *, section: str, filename: str,
              widths: Sequence[int] | None = None) -> tuple[PeriodRows, PeriodRows]:
    """Each period's rows; a figure that is not a number refuses the report (cells.py), N/A is unknown."""
    periods = (PeriodRows(), PeriodRows())
    for index, period in enumerate(periods):
        period_columns = columns.period(index)
        at = columns.values[index]
        kept: list[Located] = []
        for where, label, cells in rows:
            if at >= len(cells) or is_blank(cells[at]):
                continue
            if normalize(cells[at]) == "n/a":  # read as a row printing 0, then made unknown: never 0
                figure = period_columns.figure([*cells[:at], "0", *cells[at + 1:]], statistic, widths)
                if figure is not None:
                    check_names([figure], section=section, filename=filename, line=where)
                    period.not_captured.append(dataclasses.replace(figure, value=None))
                continue
            kept.append((where, label, cells))
        period.listed.extend(listed_segment_rows(period_columns, kept, statistic, section=section,
                                                 filename=filename, widths=widths))
    return periods


def top_n(text: str) -> int | None:
    """N of the section's note "Top N Segments from each period are compared"."""
    match = _TOP_N_RE.search(text)
    return int(match.group(1)) if match else None


def unlisted_bound(period: PeriodRows, top: int | None) -> int | None:
    """Upper bound on the period's figure of a segment the section does not list, or N/A (None: no bound).

    Its N-th largest figure (with k figures printed #####, the (N-k)-th largest known one; none when the section
    does not state N), and its total (from the rows' % of Total) less every listed figure.
    """
    known = sorted((row.figure.value for row in period.listed if row.figure.value is not None), reverse=True)
    overflowed = len(period.listed) - len(known)
    candidates: list[int] = []
    # Without N, the smallest row may be another period's top segment doing little in this one: no bound from it.
    if known and top is not None and top - overflowed >= 1:
        candidates.append(known[min(top - overflowed, len(known)) - 1])
    total = total_at_most(period.listed)
    if total is not None and not overflowed:
        candidates.append(max(total - sum(known), 0))
    return min(candidates) if candidates else None


def overflow_upper(row: ListedRow, period: PeriodRows) -> int | None:
    """Upper bound of a ##### figure: its % of Total of the period's total, when both are known."""
    total = total_at_most([other for other in period.listed if other.figure.value is not None])
    if row.percent_total is None or total is None:
        return None
    return math.floor((row.percent_total + 0.005) * total / 100)


# -- text ---------------------------------------------------------------------------------------------------------


def text_table(body: Sequence[str], first_line: int) -> tuple[list[Column], list[Located], list[int]] | None:
    """The grouped columns, rows and column widths of the first segment table in a text section body
    (``first_line``: the file line of ``body[0]``); None when no dash line sits under an Owner heading."""
    for index, line in enumerate(body):
        if is_section_rule(line):
            return None
        if not (is_dash_line(line) and index and "owner" in normalize(body[index - 1]).split()):
            continue
        spans = dash_spans(line)
        top = index - 1
        while top > 0 and body[top - 1].strip() and not is_dash_line(body[top - 1]):
            top -= 1  # headings of two lines ("1st Total" over "(running)")
        heading = list(body[top:index])
        if top >= 2 and is_dash_line(body[top - 1]) and body[top - 2].strip():
            group_spans = dash_spans(body[top - 1])  # each group's title over a dash line spanning its columns
            group_titles = list(zip(group_spans, column_titles([body[top - 2]], group_spans), strict=True))
        else:  # no dash line under the group titles: the heading line naming "% of Total" holds them
            at = next((i for i, text in enumerate(heading) if "% of total" in text.lower()), None)
            group_titles = [((run.start(), run.end()), run.group()) for run in _RUN_RE.finditer(heading[at])] \
                if at is not None else []
            heading = heading[at + 1:] if at is not None else heading
        titles = column_titles(heading, spans)
        groups = [_group_of(span, group_titles, identity=normalize(title) in _IDENTITY)
                  for span, title in zip(spans, titles, strict=True)]
        rows: list[Located] = []
        for offset, row in enumerate(body[index + 1:], index + 1):
            if not row.strip() or is_section_rule(row):
                break
            rows.append((first_line + offset, "", slice_fields(row, spans)))
        return list(zip(groups, titles, strict=True)), rows, [end - start for start, end in spans]
    return None


def _group_of(span: tuple[int, int], groups: Sequence[tuple[tuple[int, int], str]], *, identity: bool) -> str:
    """The title of the group over a column: the one it lies under; a figure column under none (a title
    printed centred over its group, without a dash line, is narrower than it) takes the nearest."""
    start, end = span
    for (group_start, group_end), title in groups:
        if start < group_end and end > group_start:
            return title
    if identity or not groups:
        return ""
    return min(groups, key=lambda group: max(group[0][0] - end, start - group[0][1]))[1]


# -- HTML ---------------------------------------------------------------------------------------------------------


def html_table(body: str, first_line: int) -> tuple[list[Column], list[Located]] | None:
    """The grouped columns and rows of the first table in ``body`` whose header names an Owner, colspans and
    rowspans expanded (``first_line``: the file line where ``body`` starts); None when there is none."""
    for table in _grid_tables(body):
        headers = [cells for _, cells, header in table if header]
        if not headers or not any("owner" in (normalize(cell) for cell in cells) for cells in headers):
            continue
        width = max(len(cells) for cells in headers)
        padded = [[*cells, *[""] * (width - len(cells))] for cells in headers]
        columns: list[Column] = []
        for column in zip(*padded, strict=True):
            titled = [text for text in column if clean(text)]
            title = titled[-1] if titled else ""
            group = next((text for text in titled if normalize(text) != normalize(title)), "")
            columns.append((group, title))
        rows: list[Located] = [(line + first_line - 1, f"row {number}", cells)
                for number, (line, cells, _) in enumerate((row for row in table if not row[2]), 1)]
        return columns, rows
    return None


def _grid_tables(body: str) -> list[list[tuple[int, list[str], bool]]]:
    """Each table's rows (line, cell texts with colspan/rowspan repeated, all cells th) in ``body``."""
    if "<table" not in body.lower():
        return []
    try:
        root = lxml.html.document_fromstring(body)
    except etree.ParserError:
        return []
    tables = []
    for table in root.iter("table"):
        carried: dict[int, tuple[str, int]] = {}  # column -> (text, rows still to fill) of a rowspan
        rows = []
        for tr in table.iter("tr"):
            cells: list[str] = []
            header = True
            for cell in tr.iterchildren("th", "td"):
                while len(cells) in carried:
                    cells.append(_carry(carried, len(cells)))
                header = header and cell.tag == "th"
                text = " ".join(piece.strip() for piece in cell.itertext() if piece.strip())
                for _ in range(_span(cell.get("colspan"))):
                    if (rowspan := _span(cell.get("rowspan"))) > 1:
                        carried[len(cells)] = (text, rowspan - 1)
                    cells.append(text)
            while len(cells) in carried:
                cells.append(_carry(carried, len(cells)))
            if cells:
                rows.append((tr.sourceline or 1, cells, header))
        tables.append(rows)
    return tables


def _carry(carried: dict[int, tuple[str, int]], column: int) -> str:
    text, left = carried.pop(column)
    if left > 1:
        carried[column] = (text, left - 1)
    return text


def _span(value: str | None) -> int:
    number = parse_number(value or "1")
    return max(1, min(int(number), _MAX_SPAN)) if number is not None else 1
