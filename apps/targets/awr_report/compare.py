"""Compare-period reports (awrddrpt.sql / awrddrpi.sql), HTML and text: two periods, each read on its own.

A compare-period report prints two intervals side by side: its header has one row per period
("First (1st)" / "Second (2nd)": database, instance, release; then begin/end snapshots, their times and the
elapsed minutes), and each "Top Segments Comparison by <statistic>" section lists the 1st period's top segments
in its left half and the 2nd period's in its right half, each half with its own owner, object and figure
columns. A row marked "-" did not make that period's top list (it is printed for comparison): its figure is
kept, but it does not bound the figures of the segments the section leaves out. A half printing N/A lists
nothing. Each period becomes an :class:`AwrPeriod` with its own segments, interval and bounds, as an instance
report of that interval would give; the two may be of different databases or instances.

A layout other than this (a section whose columns are not two such halves, a header without the periods'
DB Id, snapshots or times) is refused naming the section or field: guessing would attach one period's figures
to the other. Global compare reports (awrgdrpt.sql) are refused. Pure: standard library and lxml.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from apps.targets.awr_report import html as html_reader
from apps.targets.awr_report import text as text_reader
from apps.targets.awr_report.bounds import overflow_uppers, unlisted_bounds
from apps.targets.awr_report.cells import ListedRow, SectionListing, clean, is_blank
from apps.targets.awr_report.model import AwrPeriod, AwrReport, AwrReportError, SegmentFigure
from apps.targets.awr_report.numbers import parse_count, parse_number, parse_report_time
from apps.targets.awr_report.sections import (
    SegmentColumns,
    listed_segment_rows,
    normalize,
    release_major,
    section_kind,
    segment_statistic_for_section,
)

COMPARE_TITLE_RE = re.compile(r"WORKLOAD\s+REPOSITORY\s+COMPARE\s+PERIOD\s+REPORT", re.IGNORECASE)
_GLOBAL_COMPARE_RE = re.compile(r"COMPARE\s+PERIOD\s+REPORT\s*\((?:RAC|GLOBAL)\)|RAC\s+COMPARE", re.IGNORECASE)
_WEEKDAY_RE = re.compile(r"\s*\([A-Za-z]{3}\)\s*$")
# "First DB/Inst: CDB1/CDB1 Snaps: 91-92 (Elapsed time: 300.339 sec ..." (text section titles).
_TITLE_ELAPSED_RE = re.compile(r"(?P<which>First|Second)\s+DB/Inst:\s*(?P<db>[^/\s]+)/\S+\s+Snaps:\s*\d+\s*-\s*\d+"
                               r"(?:\s*\(Elapsed time:\s*(?P<seconds>[\d,.]+)\s*sec)?", re.IGNORECASE)
_LABELS = ("1st", "2nd")


def is_compare_report(document: str) -> bool:
    """True for a compare-period report (its title, within the first lines or heading)."""
    return COMPARE_TITLE_RE.search(document[:200_000]) is not None


@dataclass
class _Periods:
    """What a reader collected, per period index (0: 1st, 1: 2nd)."""

    header: list[dict[str, str]] = field(default_factory=lambda: [{}, {}])
    title_seconds: list[float | None] = field(default_factory=lambda: [None, None])
    title_db: list[str] = field(default_factory=lambda: ["", ""])
    figures: list[list[SegmentFigure]] = field(default_factory=lambda: [[], []])
    listings: list[list[SectionListing]] = field(default_factory=lambda: [[], []])

    def put_header_row(self, headings: Sequence[str], cells: Sequence[str]) -> None:
        index = _period_index(cells[0]) if cells else None
        if index is None:
            return
        for heading, cell in zip(headings, cells, strict=False):
            if heading:
                self.header[index].setdefault(heading, " ".join(cell.replace("\xa0", " ").split()))


def _period_index(cell: str) -> int | None:
    name = normalize(cell)
    if "1st" in name or name.startswith("first"):
        return 0
    if "2nd" in name or name.startswith("second"):
        return 1
    return None


# -- text -----------------------------------------------------------------------------------------------


def read_text(document: str, *, filename: str) -> AwrReport:
    """A text compare-period report as an AwrReport with its two periods."""
    lines = document.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    title_index = next((index for index, line in enumerate(lines) if COMPARE_TITLE_RE.search(line)), None)
    if title_index is None:
        raise AwrReportError("compare-period report without its 'WORKLOAD REPOSITORY COMPARE PERIOD REPORT' "
                             "title on one line", filename=filename)
    if _GLOBAL_COMPARE_RE.search(lines[title_index]):
        raise _global_refusal(filename, title_index + 1)
    sections = text_reader.split_sections(lines)
    _check_complete([(s.title, s.line) for s in sections], text_reader.has_end_marker(lines),
                    filename=filename, end_line=len(lines))
    periods = _Periods()
    header_end = sections[0].start - 1 if sections else len(lines)
    _text_header(lines[title_index:header_end], periods)
    for section in sections:
        _text_title(lines[section.line - 1], periods)
        if section_kind(section.title) == "compare_segments":
            _text_segments(lines[section.start : section.end], section, periods, filename=filename)
    return _report(periods, report_format="text", filename=filename, line=title_index + 1)


def _text_header(header: Sequence[str], periods: _Periods) -> None:
    for index, line in enumerate(header):
        if not text_reader.is_dash_line(line) or index == 0 or "snapshot set" not in normalize(header[index - 1]):
            continue
        spans = text_reader.dash_spans(line)
        headings = [normalize(title) for title in text_reader.slice_fields(header[index - 1], spans)]
        for row in header[index + 1 :]:
            if not row.strip() or text_reader.is_dash_line(row):
                break
            periods.put_header_row(headings, text_reader.slice_fields(row, spans))


def _text_title(line: str, periods: _Periods) -> None:
    for match in _TITLE_ELAPSED_RE.finditer(line):
        index = 0 if match.group("which").lower() == "first" else 1
        periods.title_db[index] = periods.title_db[index] or match.group("db")
        if match.group("seconds") and periods.title_seconds[index] is None:
            periods.title_seconds[index] = parse_number(match.group("seconds"))


def _text_segments(body: Sequence[str], section: text_reader.TextSection, periods: _Periods, *,
                   filename: str) -> None:
    statistic = segment_statistic_for_section(section.title)
    for index, line in enumerate(body):
        if text_reader.is_section_rule(line):
            break
        if not (text_reader.is_dash_line(line) and index and "owner" in normalize(body[index - 1]).split()):
            continue
        spans = text_reader.dash_spans(line)
        first = index - 1
        while first > 0 and body[first - 1].strip() and not text_reader.is_dash_line(body[first - 1]):
            first -= 1  # headings of two lines ("Tablespace" over "Name")
        headings = text_reader.column_titles(body[first:index], spans)
        widths = [end - start for start, end in spans]
        rows = []
        for offset, row in enumerate(body[index + 1 :], index + 1):
            if not row.strip() or text_reader.is_section_rule(row):
                break
            rows.append((section.start + offset + 1, "", text_reader.slice_fields(row, spans)))
        _halves(headings, rows, widths, statistic, section.title, periods, filename=filename, line=section.line)
        return
    _no_rows(statistic, periods)


# -- HTML -----------------------------------------------------------------------------------------------


def read_html(document: str, *, filename: str) -> AwrReport:
    """An HTML compare-period report as an AwrReport with its two periods."""
    sections = html_reader.split_sections(document)
    title = next((s for s in sections if s.level == 1 and COMPARE_TITLE_RE.search(s.title)), None)
    if title is None:
        raise AwrReportError("compare-period report without its 'WORKLOAD REPOSITORY COMPARE PERIOD REPORT' "
                             "heading", filename=filename)
    if _GLOBAL_COMPARE_RE.search(title.title):
        raise _global_refusal(filename, title.line)
    _check_complete([(s.title, s.line) for s in sections], html_reader.has_end_marker(document),
                    filename=filename, end_line=document.count("\n") + 1)
    periods = _Periods()
    for table in html_reader.read_tables(title.body):
        for position, row in enumerate(table):
            if row and normalize(row[0]) == "snapshot set":
                headings = [normalize(cell) for cell in row]
                for cells in table[position + 1 :]:
                    periods.put_header_row(headings, cells)
                break
    for section in sections:
        if section_kind(section.title) == "compare_segments":
            _html_segments(section, periods, filename=filename)
    return _report(periods, report_format="html", filename=filename, line=title.line)


def _html_segments(section: html_reader.HtmlSection, periods: _Periods, *, filename: str) -> None:
    statistic = segment_statistic_for_section(section.title)
    offset = section.body_line - 1
    tables = html_reader.read_located_tables(section.body)
    for table in tables:
        for position, (_, row) in enumerate(table):
            if "owner" in (normalize(cell) for cell in row):
                rows = [(line + offset, f"row {number}", cells)
                        for number, (line, cells) in enumerate(table[position + 1 :], 1)]
                _halves(row, rows, None, statistic, section.title, periods, filename=filename, line=section.line)
                return
    if tables and tables[0]:
        # A table, but no Owner column: read as its last heading row, it is refused naming its columns
        _halves(tables[0][-1][1], [], None, statistic, section.title, periods, filename=filename, line=section.line)
    _no_rows(statistic, periods)


# -- both -----------------------------------------------------------------------------------------------


def _halves(headings: Sequence[str], rows: Sequence[tuple[int | None, str, Sequence[str]]],
            widths: Sequence[int] | None, statistic: str, title: str, periods: _Periods, *,
            filename: str, line: int) -> None:
    """Split a segment comparison table into its 1st and 2nd halves and read each as a "Segments by" table."""
    owners = [index for index, heading in enumerate(headings) if normalize(heading) == "owner"]
    split = owners[1] if len(owners) == 2 else None
    halves = [(0, split), (split, len(headings))] if split else []
    columns = [SegmentColumns.from_headings(headings[start:end]) for start, end in halves]
    if not halves or any(column is None for column in columns):
        shown = ", ".join(clean(heading) for heading in headings if clean(heading))
        raise AwrReportError(
            f"compare-period report: section {title!r} has columns tierscope does not read ({shown}); it reads "
            "two side-by-side halves (1st, 2nd) each with Owner, Object Name and the figure: import an awrrpt.sql "
            "report of each period instead", filename=filename, line=line)
    for index, ((start, end), half_columns) in enumerate(zip(halves, columns, strict=True)):
        assert half_columns is not None
        half_widths = list(widths[start:end]) if widths else None
        owner_at = half_columns.identity["owner"]
        if half_widths is not None and owner_at < len(half_widths) and half_widths[owner_at] > 1:
            half_widths[owner_at] -= 1  # the owner column's first character is the "-" mark's
        top: list[ListedRow] = []
        shown: list[ListedRow] = []
        for where, label, cells in rows:
            part = list(cells[start:end])
            marked = _unmark(part, owner_at)
            if half_columns.value >= len(part) or is_blank(part[half_columns.value]) \
                    or normalize(part[half_columns.value]) == "n/a":
                continue
            listed = listed_segment_rows(half_columns, [(where, label, part)], statistic, section=title,
                                         filename=filename, widths=half_widths)
            (shown if marked else top).extend(listed)
        periods.figures[index].extend(row.figure for row in (*top, *shown))
        periods.listings[index].append(SectionListing(statistic, tuple(top), None))


def _unmark(cells: list[str], at: int) -> bool:
    """Drop the "-" that marks a row outside this period's top list; True when it had one."""
    if at >= len(cells):
        return False
    text = cells[at].lstrip()
    if not text.startswith("-"):
        return False
    cells[at] = text[1:].strip()
    return True


def _no_rows(statistic: str, periods: _Periods) -> None:
    for listings in periods.listings:
        listings.append(SectionListing(statistic, (), None))


def _report(periods: _Periods, *, report_format: str, filename: str, line: int) -> AwrReport:
    from apps.targets.awr_report.parser import merge_segments

    built = []
    for index, label in enumerate(_LABELS):
        fields = periods.header[index]

        def missing(what: str, label: str = label) -> AwrReportError:
            return AwrReportError(f"compare-period report: the header has no {what} for the {label} period",
                                  filename=filename, line=line)

        dbid, begin_snap, end_snap = (parse_count(fields.get(name, "")) for name in ("db id", "begin snap id",
                                                                                        "end snap id"))
        begin_time, end_time = (parse_report_time(_WEEKDAY_RE.sub("", fields.get(name, "")))
                                for name in ("begin snap time", "end snap time"))
        release = fields.get("release", "")
        db_name = fields.get("db name") or fields.get("unique name") or periods.title_db[index]
        for value, what in ((dbid, "DB Id"), (begin_snap, "Begin Snap Id"), (end_snap, "End Snap Id"),
                            (begin_time, "Begin Snap Time"), (end_time, "End Snap Time"), (release, "Release"),
                            (db_name, "DB Name")):
            if value is None or value == "":
                raise missing(what)
        assert dbid is not None and begin_snap is not None and end_snap is not None
        assert begin_time is not None and end_time is not None
        major = release_major(release)
        if major is None or major < 10:
            raise AwrReportError(f"compare-period report: unsupported release {release!r} for the {label} period",
                                 filename=filename, line=line)
        if end_snap < begin_snap or end_time < begin_time:
            raise AwrReportError(f"compare-period report: the {label} period ends (snap {end_snap}, {end_time}) "
                                 f"before it begins (snap {begin_snap}, {begin_time})", filename=filename, line=line)
        # The section titles state seconds (text); the header minutes to a tenth or hundredth.
        seconds = periods.title_seconds[index]
        minutes = parse_number(fields.get("elapsed time (min)", "").replace("(mins)", ""))
        stated = seconds / 60 if seconds is not None else minutes
        elapsed = stated if stated is not None else (end_time - begin_time).total_seconds() / 60
        built.append(AwrPeriod(
            label=label, db_name=db_name, dbid=dbid,
            instance_number=_instance(fields, label, filename=filename, line=line),
            release=release, rac=normalize(fields.get("cluster", fields.get("rac", ""))) == "yes",
            begin_snap=begin_snap, end_snap=end_snap, begin_time=begin_time, end_time=end_time,
            elapsed_minutes=round(elapsed, 4), elapsed_stated=stated is not None,
            segments=merge_segments(periods.figures[index], overflow_uppers(periods.listings[index])),
            unlisted_bounds=unlisted_bounds(periods.listings[index]),
        ))
    first = built[0]
    notes = [] if any(period.segments for period in built) else [
        "Warning: no segment figures in this compare-period report: its 'Top Segments Comparison by ...' "
        "sections are missing or list no segment; import an awrrpt.sql report of each period instead"]
    return AwrReport(
        db_name=first.db_name, dbid=first.dbid, instances=(first.instance_number,), release=first.release,
        rac=first.rac, begin_snap=first.begin_snap, end_snap=first.end_snap, begin_time=first.begin_time,
        end_time=first.end_time, elapsed_minutes=first.elapsed_minutes, is_global=False,
        report_format=report_format, filename=filename, notes=tuple(notes), elapsed_stated=first.elapsed_stated,
        periods=tuple(built),
    )


def periods_of_database(report: AwrReport, dbid: int) -> AwrReport:
    """``report`` with only the periods of database ``dbid`` (a target holds one database), the others named
    in a warning among its notes."""
    kept = tuple(period for period in report.periods if period.dbid == dbid)
    if not kept or len(kept) == len(report.periods):
        return report
    first = kept[0]
    notes = tuple(
        f"Warning: compare-period report: the {p.label} period (snaps {p.begin_snap}-{p.end_snap}) is of database "
        f"{p.db_name} (DBID {p.dbid}), not of this target's (DBID {dbid}): not imported; import the report into a "
        "target of that database too"
        for p in report.periods if p.dbid != dbid)
    return dataclasses.replace(
        report, periods=kept, db_name=first.db_name, dbid=first.dbid, instances=(first.instance_number,),
        release=first.release, rac=first.rac, begin_snap=first.begin_snap, end_snap=first.end_snap,
        begin_time=first.begin_time, end_time=first.end_time, elapsed_minutes=first.elapsed_minutes,
        elapsed_stated=first.elapsed_stated, notes=(*report.notes, *notes))


def _instance(fields: dict[str, str], label: str, *, filename: str, line: int) -> int:
    """The period's instance number; a single-instance database (Cluster NO) that prints none is instance 1."""
    for heading in ("inst num", "instance number", "inst num.", "inst #"):
        number = parse_count(fields.get(heading, ""))
        if number is not None:
            return number
    if normalize(fields.get("cluster", fields.get("rac", "no"))) != "yes":
        return 1
    raise AwrReportError(f"compare-period report: the header names no instance number for the {label} period of "
                         "a RAC database; import an awrrpt.sql (awrrpti.sql) report of that period instead",
                         filename=filename, line=line)


def _global_refusal(filename: str, line: int) -> AwrReportError:
    return AwrReportError("global compare-period report (awrgdrpt.sql) is not supported: import the instance "
                          "reports of each period (awrrpti.sql), or an awrddrpi.sql report per instance",
                          filename=filename, line=line)


def _check_complete(titles: list[tuple[str, int]], has_end: bool, *, filename: str, end_line: int) -> None:
    from apps.targets.awr_report.parser import check_complete

    check_complete(titles, has_end, filename=filename, end_line=end_line)
