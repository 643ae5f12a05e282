"""Reader for the HTML reports awrrpt.sql / awrrpti.sql / awrgrpt.sql write.

Every release from 10g on writes each section as an ``<h2>``/``<h3>``
heading followed by its tables, with the report header (database, instances,
snapshots) as the tables after the ``<h1>``. Parsing a whole 2-5 MB report
into one tree takes seconds, so the document is first cut at its headings with
a regular expression and only the few sections tierscope reads are parsed, by
lxml.html, each of at most MAX_SECTION_BYTES: a tree costs about 20 times its
HTML (BeautifulSoup's cost 90 times: a 47 MB section of table rows took 4.5 GB
and 80 s), and only those sections' text is kept beside the document. Upper-case
tags and unquoted attributes (reports re-saved by a browser) are matched too.
"""

from __future__ import annotations

import html as html_lib
import re
from collections.abc import Iterator
from dataclasses import dataclass

import lxml.html
from lxml import etree

from apps.targets.awr_report import coverage
from apps.targets.awr_report.cells import ListedRow, SectionListing, overflow_notes, section_total
from apps.targets.awr_report.header import HeaderFields, build_header
from apps.targets.awr_report.model import (
    MAX_SECTION_BYTES,
    AwrReportError,
    RawReport,
    ReaderFindings,
    SegmentFigure,
    TablespaceFigure,
)
from apps.targets.awr_report.numbers import parse_count, parse_minutes, parse_report_time
from apps.targets.awr_report.sections import (
    SegmentColumns,
    TablespaceColumns,
    listed_segment_rows,
    normalize,
    section_kind,
    segment_statistic_for_section,
)
from apps.targets.awr_report.sysstat import kept_statistic, statistic_total_columns

_HEADING_RE = re.compile(r"<h([1-3])\b[^>]*>(.*?)</h\1\s*>", re.IGNORECASE | re.DOTALL)
_TAG_RE = re.compile(r"<[^>]*>")
_TABLE_RE = re.compile(r"<table", re.IGNORECASE)
_END_OF_REPORT_RE = re.compile(r"(?:^|>)\s*End of Report\s*(?:<|$)", re.MULTILINE)

Row = list[str]


@dataclass(frozen=True)
class HtmlSection:
    """One heading and the HTML between it and the next heading (kept only for the report header and
    the sections tierscope reads: empty for the others)."""

    level: int
    title: str
    body: str
    line: int  # 1-based line of the heading in the file
    size: int = 0  # characters between this heading and the next
    body_line: int = 0  # 1-based line of the file where ``body`` starts


def split_sections(document: str) -> list[HtmlSection]:
    """Cut ``document`` at its ``<h1>``-``<h3>`` headings."""
    matches = list(_HEADING_RE.finditer(document))
    sections: list[HtmlSection] = []
    line = 1
    previous_start = 0
    for index, match in enumerate(matches):
        end = matches[index + 1].start() if index + 1 < len(matches) else len(document)
        line += document.count("\n", previous_start, match.start())
        previous_start = match.start()
        title = " ".join(html_lib.unescape(_TAG_RE.sub(" ", match.group(2))).split())
        level = int(match.group(1))
        wanted = level == 1 or section_kind(title) is not None
        # An oversized section is not copied: reading it refuses the report (_section_tables).
        body = document[match.end() : end] if wanted and end - match.end() <= MAX_SECTION_BYTES else ""
        body_line = line + match.group(0).count("\n")
        sections.append(HtmlSection(level=level, title=title, body=body, line=line, size=end - match.end(),
                                    body_line=body_line))
    return sections


def section_text(body: str) -> str:
    """A section's HTML as plain text (tags dropped, entities decoded), for the notes above its table."""
    return html_lib.unescape(_TAG_RE.sub(" ", body))


def has_end_marker(document: str) -> bool:
    """True when the report's closing 'End of Report' line is present."""
    return _END_OF_REPORT_RE.search(document) is not None


def read_tables(body: str) -> list[list[Row]]:
    """Every table in ``body`` as rows of cell texts (header rows included; a nested table's rows
    also in the table around it, as BeautifulSoup's find_all gave them)."""
    return [[row for _, row in table] for table in read_located_tables(body)]


def read_located_tables(body: str) -> list[list[tuple[int, Row]]]:
    """As :func:`read_tables`, each row with its 1-based line in ``body``."""
    if not _TABLE_RE.search(body):
        return []
    try:
        root = lxml.html.document_fromstring(body)
    except etree.ParserError:  # nothing but whitespace or comments
        return []
    tables: list[list[tuple[int, Row]]] = []
    for table in root.iter("table"):
        rows = [(row.sourceline or 1, [_cell_text(cell) for cell in row.iter("th", "td")]) for row in table.iter("tr")]
        tables.append([(line, cells) for line, cells in rows if cells])
    return tables


def _cell_text(cell: lxml.html.HtmlElement) -> str:
    """The cell's text pieces, each stripped, joined by a space (BeautifulSoup's get_text(" ", strip=True))."""
    return " ".join(piece.strip() for piece in cell.itertext() if piece.strip())


def _section_tables(section: HtmlSection, *, filename: str) -> list[list[tuple[int, Row]]]:
    """The section's tables, each row with its line in the file."""
    if section.size > MAX_SECTION_BYTES:
        raise AwrReportError(
            f"section {section.title!r} is {section.size} characters long, more than the "
            f"{MAX_SECTION_BYTES} an AWR report's section has",
            filename=filename, line=section.line,
        )
    offset = section.body_line - 1
    return [[(line + offset, row) for line, row in table] for table in read_located_tables(section.body)]


def find_title(sections: list[HtmlSection], *, filename: str) -> HtmlSection:
    """The ``<h1>WORKLOAD REPOSITORY report ...</h1>`` section; AwrReportError when absent."""
    for section in sections:
        if section.level == 1 and "workload repository" in section.title.lower():
            return section
    raise AwrReportError(
        "not an AWR report: no 'WORKLOAD REPOSITORY report' heading", filename=filename
    )


def read_report(
    sections: list[HtmlSection], *, title_section: HtmlSection, filename: str
) -> RawReport:
    """Read an HTML report, cut by :func:`split_sections`, into a :class:`RawReport`."""
    fields = _header_fields(title_section, filename=filename)
    header = build_header(fields, filename=filename, line=title_section.line)
    found = ReaderFindings()
    for section in sections:
        kind = section_kind(section.title)
        if kind is None or kind == "compare_segments":
            if coverage.is_segment_like(section.title):
                found.notes.append(coverage.passed_over_note(section.title, reason="not a section tierscope reads",
                                                             filename=filename, line=section.line))
            continue
        tables = _section_tables(section, filename=filename)
        if kind in ("segments", "global_segments"):
            found.figures.extend(_segment_figures(tables, section, kind=kind, filename=filename, notes=found.notes,
                                                  listings=found.listings))
        elif kind == "sysstat":
            found.sysstat.update(_sysstat(tables, section=section.title, filename=filename, notes=found.notes))
        else:
            found.tablespaces.extend(_tablespace_figures(tables, section=section.title, filename=filename,
                                                         notes=found.notes))
    return found.raw_report(header)


def _headed_tables(tables: list[list[tuple[int, Row]]], required: str) -> Iterator[tuple[Row, list[tuple[int, Row]]]]:
    """Each table with a row that has a cell reading ``required`` (normalized): the first such row (the
    headings) and the rows under it, numbered by line."""
    for table in tables:
        for index, (_, row) in enumerate(table):
            if required in (normalize(cell) for cell in row):
                yield row, table[index + 1 :]
                break


def _segment_figures(
    tables: list[list[tuple[int, Row]]], section: HtmlSection, *, kind: str, filename: str, notes: list[str],
    listings: list[SectionListing],
) -> list[SegmentFigure]:
    """Figures of a "Segments by" table, or of the long global table (statistic read per row)."""
    statistic = segment_statistic_for_section(section.title) if kind == "segments" else None
    # The global table mixes statistics, so its section has no one total to bound an unknown with.
    preamble = section.body[: first.start()] if (first := _TABLE_RE.search(section.body)) else ""
    total = section_total(html_lib.unescape(_TAG_RE.sub(" ", preamble))) if statistic else None
    figures: list[SegmentFigure] = []
    rows: list[ListedRow] = []
    located = False
    for headings, body in _headed_tables(tables, "owner"):
        columns = SegmentColumns.from_headings(headings)
        if columns is None:
            notes.append(coverage.columns_note(section.title, headings, filename=filename, line=section.line))
            return figures
        located = True
        numbered = [(line, f"row {number}", row) for number, (line, row) in enumerate(body, 1)]
        listed = listed_segment_rows(columns, numbered, statistic, section=section.title, filename=filename)
        notes.extend(overflow_notes(listed, section=section.title, column=columns.value_heading, total=total,
                                    filename=filename))
        figures.extend(row.figure for row in listed)
        rows.extend(listed)
    if not located and not coverage.says_no_data(html_lib.unescape(_TAG_RE.sub(" ", section.body))):
        headings = tables[0][0][1] if tables and tables[0] else []
        notes.append(coverage.columns_note(section.title, headings, filename=filename, line=section.line))
        return figures
    if located and statistic is None:
        notes.extend(coverage.unknown_global_statistic_notes(rows, title=section.title, filename=filename))
    unknown = coverage.unknown_statistic_note(section.title, filename=filename, line=section.line) if located else None
    if unknown is not None:
        notes.append(unknown)
    listings.append(SectionListing(statistic, tuple(rows), total))
    return figures


def _sysstat(tables: list[list[tuple[int, Row]]], *, section: str, filename: str, notes: list[str]) -> dict[str, int]:
    found: dict[str, int] = {}
    for headings, body in _headed_tables(tables, "statistic"):
        columns = statistic_total_columns(headings)
        if columns is None:
            continue
        for number, (line, row) in enumerate(body, 1):
            kept = kept_statistic(row, columns, section=section, where=f"row {number}", filename=filename, line=line,
                                  notes=notes)
            if kept is not None:
                name, value = kept
                found[name] = value
    return found


def _tablespace_figures(
    tables: list[list[tuple[int, Row]]], *, section: str, filename: str, notes: list[str]
) -> list[TablespaceFigure]:
    figures: list[TablespaceFigure] = []
    for headings, body in _headed_tables(tables, "tablespace"):
        columns = TablespaceColumns.from_headings(headings)
        if columns is None:
            continue
        for number, (line, row) in enumerate(body, 1):
            figure = columns.kept_figure(row, section=section, where=f"row {number}", filename=filename, line=line,
                                         notes=notes)
            if figure is not None:
                figures.append(figure)
    return figures


def _header_fields(title_section: HtmlSection, *, filename: str) -> HeaderFields:
    """Collect the header tables' cells under their (normalized) column headings."""
    fields = HeaderFields(title=title_section.title)
    for located in _section_tables(title_section, filename=filename):
        table = [row for _, row in located]
        if not table:
            continue
        headings = [normalize(cell) for cell in table[0]]
        if "i#" in headings:
            _read_instance_rows(table, fields)
        elif headings[:1] == ["database"] and len(table) >= 3:
            _read_global_database_row(table, fields)
        elif "db name" in headings or "inst num" in headings:
            for row in table[1:2]:
                fields.put_row(headings, row)
        elif "snap id" in headings:
            _read_snap_rows(table, fields)
    return fields


def _read_snap_rows(table: list[Row], fields: HeaderFields) -> None:
    for row in table[1:]:
        label = normalize(row[0]) if row else ""
        if label in ("begin snap:", "end snap:") and len(row) >= 3:
            prefix = "begin" if label.startswith("begin") else "end"
            fields.snaps[prefix] = parse_count(row[1])
            fields.times[prefix] = parse_report_time(row[2])
        elif label == "elapsed:":
            minutes = [parse_minutes(cell) for cell in row[1:] if "min" in cell]
            fields.elapsed_minutes = minutes[0] if minutes else None


def _read_global_database_row(table: list[Row], fields: HeaderFields) -> None:
    """awrgrpt's 'Database / Snapshot Ids / ... / Report Total' block (two heading rows)."""
    headings = [normalize(cell) for cell in table[1]]
    values = table[2]
    fields.is_global = True
    fields.put_row(headings, values)
    named = dict(zip(headings, values, strict=False))
    fields.snaps["begin"] = parse_count(named.get("begin", ""))
    fields.snaps["end"] = parse_count(named.get("end", ""))
    fields.elapsed_minutes = parse_minutes(named.get("elapsed time", ""))


def _read_instance_rows(table: list[Row], fields: HeaderFields) -> None:
    """awrgrpt's per-instance block: I#, Startup, Begin/End Snap Time, Release."""
    fields.put_instance_rows([normalize(cell) for cell in table[0]], table[1:])
