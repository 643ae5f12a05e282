"""Reader for the plain-text reports awrrpt.sql / awrrpti.sql write.

Text reports are fixed-width. Every section starts with a title line such as
``Segments by Physical Reads      DB/Inst: ORCL/orcl1  Snaps: 2-3`` (a page
break puts a form feed before it) and ends with an indented rule of dashes.
A table's column titles stand above a line of dashes whose runs give the
column spans. From 12.2 on, segment and tablespace tables print each record
on two lines (owner and tablespace first, then the object and its figures),
so their heading has two dash lines; a record is then one line per dash line.
Names are kept exactly as printed: objects cut at 20 characters, subobjects
to their last 10, types to 5 (``LOB P``); a name that fills its column is
marked as cut (``SegmentFigure.truncated_fields``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from apps.targets.awr_report import coverage
from apps.targets.awr_report.cells import SectionListing, overflow_notes, section_total
from apps.targets.awr_report.header import HeaderFields, build_header
from apps.targets.awr_report.model import AwrReportError, RawReport, ReaderFindings, SegmentFigure, TablespaceFigure
from apps.targets.awr_report.numbers import parse_number, parse_report_time
from apps.targets.awr_report.sections import (
    SegmentColumns,
    TablespaceColumns,
    is_section_end_marker,
    listed_segment_rows,
    normalize,
    section_kind,
    segment_statistic_for_section,
)
from apps.targets.awr_report.sysstat import kept_statistic, statistic_total_columns

# The title may run into its "DB/Inst:" with no space when it fills its column (11.2.0.3:
# "Segments by Physical Read RequestsDB/Inst: ORCL/orcl1  Snaps: 2-3").
_SECTION_TITLE_RE = re.compile(r"^(?P<title>\S.*?)(?:\s*First)?\s*DB/Inst:\s*\S.*?Snaps:\s*\d+\s*-\s*\d+")
_REPORT_TITLE_RE = re.compile(r"^\s*WORKLOAD REPOSITORY (?:PDB )?report", re.IGNORECASE)
_GLOBAL_TITLE_RE = re.compile(r"^\s*WORKLOAD REPOSITORY REPORT \(RAC\)", re.IGNORECASE)
_SNAP_RE = re.compile(
    r"^\s*(?P<which>Begin|End) Snap:\s+(?P<snap>\d+)\s+"
    r"(?P<time>\d{1,2}-[A-Za-z]{3}-\d{2}\s+\d{1,2}:\d{2}:\d{2})"
)
_ELAPSED_RE = re.compile(r"^\s*Elapsed:\s+(?P<minutes>[\d,.]+)\s*\(mins\)")
_DASH_RUN_RE = re.compile(r"-+")
#: A section's "-> Total ...: N" lines come right under its title.
_PREAMBLE_LINES = 8
#: The header lines sit between the report title and the first section.
_MAX_HEADER_LINES = 200

Spans = list[tuple[int, int]]


@dataclass(frozen=True)
class TextSection:
    """A section title and where its body lies in the report's lines."""

    title: str
    line: int  # 1-based line number of the title
    start: int  # index of the first body line
    end: int  # index after the last body line


def split_sections(lines: Sequence[str]) -> list[TextSection]:
    """Find every section title line (``... DB/Inst: ... Snaps: a-b``)."""
    titles: list[tuple[str, int]] = []
    for index, line in enumerate(lines):
        match = _SECTION_TITLE_RE.match(line.lstrip("\f"))
        if match is not None:
            titles.append((match.group("title").strip(), index))
    sections: list[TextSection] = []
    for position, (title, index) in enumerate(titles):
        end = titles[position + 1][1] if position + 1 < len(titles) else len(lines)
        sections.append(TextSection(title=title, line=index + 1, start=index + 1, end=end))
    return sections


def has_end_marker(lines: Sequence[str]) -> bool:
    """True when the closing 'End of Report' line is present."""
    return any(is_section_end_marker(line) for line in reversed(lines))


def is_global_title(line: str) -> bool:
    """True for a global RAC report's title line, "WORKLOAD REPOSITORY REPORT (RAC)" (text_global.py)."""
    return _GLOBAL_TITLE_RE.match(line) is not None


def find_title(lines: Sequence[str], *, filename: str) -> int:
    """Index of the 'WORKLOAD REPOSITORY report for' (or '... REPORT (RAC)') line; AwrReportError when absent."""
    for index, line in enumerate(lines):
        if _GLOBAL_TITLE_RE.match(line) or _REPORT_TITLE_RE.match(line):
            return index
    raise AwrReportError(
        "not an AWR report: no 'WORKLOAD REPOSITORY report' title line", filename=filename
    )


def read_report(
    lines: Sequence[str], sections: Sequence[TextSection], *, title_index: int, filename: str,
    header_reader: Callable[[Sequence[str]], HeaderFields] | None = None,
) -> RawReport:
    """Read a text report, cut by :func:`split_sections`, into a :class:`RawReport` (``header_reader``: how
    its header lines are read, text_global.header_fields for a global report)."""
    header_end = sections[0].start - 1 if sections else len(lines)
    header_end = min(header_end, title_index + _MAX_HEADER_LINES)
    header_lines = [line.lstrip("\f") for line in lines[title_index:header_end]]
    fields = (header_reader or _header_fields)(header_lines)
    header = build_header(fields, filename=filename, line=title_index + 1)
    found = ReaderFindings()
    found.notes.extend(coverage.unrecognised_title_notes(lines, (section.line - 1 for section in sections),
                                                         filename=filename))
    for section in sections:
        kind = section_kind(section.title)
        body = lines[section.start : section.end]
        if kind in ("segments", "global_segments"):
            found.figures.extend(_segment_figures(body, section, filename=filename, notes=found.notes,
                                                  listings=found.listings, per_row=kind == "global_segments"))
        elif kind is None and coverage.is_segment_like(section.title):
            found.notes.append(coverage.passed_over_note(section.title, reason="not a section tierscope reads",
                                                         filename=filename, line=section.line))
        elif kind == "sysstat":
            found.sysstat.update(_sysstat(body, section, filename=filename, notes=found.notes))
        elif kind == "tablespace_io":
            found.tablespaces.extend(_tablespace_figures(body, section, filename=filename, notes=found.notes))
    return found.raw_report(header)


# -- fixed-width tables -------------------------------------------------------


def is_dash_line(line: str) -> bool:
    stripped = line.strip()
    return bool(stripped) and set(stripped) <= {"-", " "}


def is_section_rule(line: str) -> bool:
    """The indented single rule that closes a section (not a column underline)."""
    stripped = line.strip()
    indent = len(line) - len(line.lstrip())
    return is_dash_line(line) and " " not in stripped and indent >= 10 and len(stripped) >= 40


def dash_spans(line: str) -> Spans:
    return [(match.start(), match.end()) for match in _DASH_RUN_RE.finditer(line)]


def slice_fields(line: str, spans: Spans) -> list[str]:
    """Cut ``line`` at ``spans``; each field reaches back to the previous column's end.

    Right-aligned figures that overflow their column into the gap are so kept
    whole; the last field runs to the end of the line.
    """
    fields: list[str] = []
    previous_end = 0
    for position, (_, end) in enumerate(spans):
        stop = len(line) if position == len(spans) - 1 else end
        fields.append(line[previous_end:stop].strip())
        previous_end = end
    return fields


def column_titles(title_lines: Sequence[str], spans: Spans) -> list[str]:
    """The titles of the columns ``spans`` cut, each joined over the heading's lines."""
    columns = [slice_fields(line, spans) for line in title_lines]
    return [" ".join(part for part in parts if part) for parts in zip(*columns, strict=False)] or [
        "" for _ in spans
    ]


def read_table(
    body: Sequence[str], heading_complete: Callable[[list[str]], bool]
) -> tuple[list[str], list[tuple[int, list[str]]], list[int]]:
    """The column titles, records and column widths (dash runs) of the first table in ``body``.

    The heading may have several dash lines; it is complete once
    ``heading_complete`` accepts the titles gathered so far. Each record has
    one line per dash line, its fields concatenated in heading order; it comes
    with the index in ``body`` of its last line (where the figures are).
    """
    groups: list[Spans] = []
    titles: list[str] = []
    pending: list[str] = []
    index = 0
    while index < len(body):
        line = body[index].lstrip("\f")
        index += 1
        if is_section_rule(line):
            return [], [], []
        if is_dash_line(line):
            spans = dash_spans(line)
            groups.append(spans)
            titles.extend(column_titles(pending, spans) if pending else ["" for _ in spans])
            pending = []
            if heading_complete(titles):
                widths = [end - start for spans_of_line in groups for start, end in spans_of_line]
                return titles, [(index + at, record) for at, record in _records(body[index:], groups)], widths
        elif not line.strip() or line.lstrip().startswith("->"):
            pending = []
        else:
            pending.append(line)
    return [], [], []


def _records(body: Sequence[str], groups: Sequence[Spans]) -> Iterator[tuple[int, list[str]]]:
    data: list[str] = []
    for raw in body:
        line = raw.lstrip("\f")
        if not line.strip() or is_section_rule(line):
            break
        data.append(line)
    size = len(groups)
    for start in range(0, len(data) - size + 1, size):
        record: list[str] = []
        for line, spans in zip(data[start : start + size], groups, strict=True):
            record.extend(slice_fields(line, spans))
        yield start + size - 1, record


# -- sections -------------------------------------------------------------------


def _has(*names: str) -> Callable[[list[str]], bool]:
    wanted = set(names)
    return lambda titles: wanted <= {normalize(title) for title in titles}


def _segment_figures(
    body: Sequence[str], section: TextSection, *, filename: str, notes: list[str], listings: list[SectionListing],
    per_row: bool = False,
) -> list[SegmentFigure]:
    """A "Segments by" table's figures; ``per_row``: Segment Statistics (Global), each row's statistic named
    in its Statistic column (or, left blank, the row's above)."""
    statistic = None if per_row else segment_statistic_for_section(section.title)
    preamble = "\n".join(line for line in body[:_PREAMBLE_LINES] if line.lstrip().startswith("->"))
    total = None if per_row else section_total(preamble)
    titles, records, widths = read_table(body, _has("owner", "object name"))
    columns = SegmentColumns.from_headings(titles) if titles else None
    if columns is not None and per_row:
        records = _statistic_carried(records, columns.identity.get("statistic"))
    if columns is None:
        if coverage.says_no_data("\n".join(body[:_PREAMBLE_LINES * 2])):
            listings.append(SectionListing(statistic, (), total))  # "No data exists for this section"
        else:
            notes.append(coverage.columns_note(section.title, titles or _heading_guess(body), filename=filename,
                                               line=section.line))
        return []
    unknown = coverage.unknown_statistic_note(section.title, filename=filename, line=section.line)
    if unknown is not None:
        notes.append(unknown)
    located = [(section.start + index + 1, "", record) for index, record in records]
    listed = listed_segment_rows(columns, located, statistic, section=section.title, filename=filename,
                                 widths=widths)
    if per_row:
        notes.extend(coverage.unknown_global_statistic_notes(listed, title=section.title, filename=filename))
    notes.extend(overflow_notes(listed, section=section.title, column=columns.value_heading, total=total,
                                filename=filename))
    listings.append(SectionListing(statistic, tuple(listed), total))
    return [row.figure for row in listed]


def _statistic_carried(records: list[tuple[int, list[str]]], at: int | None) -> list[tuple[int, list[str]]]:
    """Rows whose Statistic cell is blank take the statistic of the row above (printed once per group)."""
    if at is None:
        return records
    carried: list[tuple[int, list[str]]] = []
    current = ""
    for index, record in records:
        if at < len(record) and record[at].strip():
            current = record[at]
        elif at < len(record) and current:
            record = [*record[:at], current, *record[at + 1:]]
        carried.append((index, record))
    return carried


def _heading_guess(body: Sequence[str]) -> list[str]:
    """The words above the first dash line of a section whose table was not located, to name in a note."""
    for index, line in enumerate(body):
        if is_dash_line(line) and index:
            first = index
            while first > 0 and body[first - 1].strip() and not body[first - 1].lstrip().startswith("->"):
                first -= 1
            return column_titles(body[first:index], dash_spans(line))
    return []


def _sysstat(body: Sequence[str], section: TextSection, *, filename: str, notes: list[str]) -> dict[str, int]:
    titles, records, _ = read_table(body, _has("statistic", "total"))
    columns = statistic_total_columns(titles) if titles else None
    if columns is None:
        return {}
    found: dict[str, int] = {}
    for index, record in records:
        kept = kept_statistic(record, columns, section=section.title, where="", filename=filename,
                              line=section.start + index + 1, notes=notes)
        if kept is not None:
            name, value = kept
            found[name] = value
    return found


def _tablespace_figures(
    body: Sequence[str], section: TextSection, *, filename: str, notes: list[str]
) -> list[TablespaceFigure]:
    titles, records, _ = read_table(body, _has("tablespace", "reads"))
    columns = TablespaceColumns.from_headings(titles) if titles else None
    if columns is None:
        return []
    figures: list[TablespaceFigure] = []
    for index, record in records:
        figure = columns.kept_figure(record, section=section.title, where="", filename=filename,
                                     line=section.start + index + 1, notes=notes)
        if figure is not None:
            figures.append(figure)
    return figures


# -- header -----------------------------------------------------------------------


def _header_fields(header_lines: Sequence[str]) -> HeaderFields:
    fields = HeaderFields(title=header_lines[0].strip() if header_lines else "")
    for index, line in enumerate(header_lines):
        snap = _SNAP_RE.match(line)
        elapsed = _ELAPSED_RE.match(line)
        if snap is not None:
            which = snap.group("which").lower()
            fields.snaps.setdefault(which, int(snap.group("snap")))
            fields.times.setdefault(which, parse_report_time(snap.group("time")))
        elif elapsed is not None and fields.elapsed_minutes is None:
            fields.elapsed_minutes = parse_number(elapsed.group("minutes"))
        elif is_dash_line(line) and 0 < index < len(header_lines) - 1:
            _read_header_block(header_lines[index - 1], line, header_lines[index + 1], fields)
    return fields


def _read_header_block(title_line: str, dash_line: str, value_line: str, fields: HeaderFields) -> None:
    """One 'titles / dashes / values' block, e.g. DB Name ... Release RAC."""
    spans = dash_spans(dash_line)
    titles = [normalize(title) for title in slice_fields(title_line, spans)]
    if "db name" in titles or "inst num" in titles:
        fields.put_row(titles, slice_fields(value_line, spans))
