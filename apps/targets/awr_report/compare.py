"""Compare-period reports (awrddrpt.sql / awrddrpi.sql), HTML and text: two periods, each read on its own.

A compare-period report prints two intervals side by side: its header has one row per period
("First (1st)" / "Second (2nd)": database, instance, release; then begin/end snapshots, their times and the
elapsed minutes), and each "Top Segments Comparison by <statistic>" section lists the top N segments of each
period, one row per segment with both periods' figures (``compare_layout.py``: the grouped columns, N/A, the
bounds). Each period becomes an :class:`AwrPeriod` with its own segments, interval and bounds, as an instance
report of that interval would give; the two may be of different databases or instances.

A layout other than this (a section whose columns are not those groups, a header without the periods'
DB Id, snapshots or times) is refused naming the section or field: guessing would attach one period's figures
to the other. A segment section the reader does not know is named in the notes (``coverage.py``). Global
compare reports (awrgdrpt.sql) are refused. Pure: standard library and lxml.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import NoReturn

from apps.targets.awr_report import compare_layout, coverage
from apps.targets.awr_report import html as html_reader
from apps.targets.awr_report import text as text_reader
from apps.targets.awr_report.assembly import check_complete, merge_segments
from apps.targets.awr_report.bounds import SegmentKeyTuple
from apps.targets.awr_report.cells import ListedRow, clean
from apps.targets.awr_report.model import MAX_SECTION_BYTES, AwrPeriod, AwrReport, AwrReportError, SegmentFigure
from apps.targets.awr_report.numbers import parse_count, parse_number, parse_report_time
from apps.targets.awr_report.sections import normalize, release_major, section_kind, segment_statistic_for_section

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
    #: Per period: statistic -> bound on a segment the section does not list (see AwrReport.unlisted_bounds).
    bounds: list[dict[str, int | None]] = field(default_factory=lambda: [{}, {}])
    #: Per period: (segment key, statistic) -> bound of a figure printed N/A or #####.
    uppers: list[dict[tuple[SegmentKeyTuple, str], int | None]] = field(default_factory=lambda: [{}, {}])
    notes: list[str] = field(default_factory=list)

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
    check_complete([(s.title, s.line) for s in sections], text_reader.has_end_marker(lines),
                    filename=filename, end_line=len(lines))
    periods = _Periods()
    periods.notes.extend(coverage.unrecognised_title_notes(lines, (s.line - 1 for s in sections), filename=filename))
    header_end = sections[0].start - 1 if sections else len(lines)
    _text_header(lines[title_index:header_end], periods)
    for section in sections:
        _text_title(lines[section.line - 1], periods)
        body = lines[section.start : section.end]
        if section_kind(section.title) == "compare_segments":
            _text_segments(body, section, periods, filename=filename)
        elif coverage.is_segment_like(section.title) and not coverage.says_no_data("\n".join(body)):
            periods.notes.append(coverage.passed_over_note(section.title, reason="not a section tierscope reads",
                                                           filename=filename, line=section.line))
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
    found = compare_layout.text_table(body, section.start + 1)
    if found is None:
        if coverage.says_no_data("\n".join(body)):
            _no_rows(segment_statistic_for_section(section.title), periods)
        else:
            _refuse_columns([], section.title, filename=filename, line=section.line)
        return
    columns, rows, widths = found
    preamble = "\n".join(line for line in body[:8] if line.lstrip().startswith("->"))
    _read_table(columns, rows, widths, preamble, section.title, periods, filename=filename, line=section.line)


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
    check_complete([(s.title, s.line) for s in sections], html_reader.has_end_marker(document),
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
        elif coverage.is_segment_like(section.title):
            periods.notes.append(coverage.passed_over_note(section.title, reason="not a section tierscope reads",
                                                           filename=filename, line=section.line))
    return _report(periods, report_format="html", filename=filename, line=title.line)


def _html_segments(section: html_reader.HtmlSection, periods: _Periods, *, filename: str) -> None:
    if section.size > MAX_SECTION_BYTES:  # its body was not kept: refused, never read as empty
        raise AwrReportError(f"section {section.title!r} is {section.size} characters long, more than the "
                             f"{MAX_SECTION_BYTES} an AWR report's section has", filename=filename, line=section.line)
    text = html_reader.section_text(section.body)
    _text_title(text, periods)
    found = compare_layout.html_table(section.body, section.body_line)
    if found is None:
        if coverage.says_no_data(text) or not section.body.strip():
            _no_rows(segment_statistic_for_section(section.title), periods)
        else:
            headings = [cell for table in html_reader.read_tables(section.body)[:1] for cell in table[0]]
            _refuse_columns(headings, section.title, filename=filename, line=section.line)
        return
    columns, rows = found
    _read_table(columns, rows, None, text, section.title, periods, filename=filename, line=section.line)


# -- both -----------------------------------------------------------------------------------------------


def _read_table(columns: list[compare_layout.Column], rows: list[compare_layout.Located], widths: list[int] | None,
                preamble: str, title: str, periods: _Periods, *, filename: str, line: int) -> None:
    """Read one section's table into each period's figures and bounds."""
    statistic = segment_statistic_for_section(title)
    located = compare_layout.CompareColumns.from_columns(columns)
    if located is None:
        _refuse_columns([heading for group, heading in columns], title, filename=filename, line=line)
    unknown = coverage.unknown_statistic_note(title, filename=filename, line=line)
    if unknown is not None:
        periods.notes.append(unknown)
    top = compare_layout.top_n(preamble)
    for index, period in enumerate(compare_layout.read_rows(located, rows, statistic, section=title,
                                                           filename=filename, widths=widths)):
        bound = compare_layout.unlisted_bound(period, top)
        periods.bounds[index][statistic] = bound
        for row in period.listed:
            periods.figures[index].append(row.figure)
            if row.figure.value is None:
                upper = compare_layout.overflow_upper(row, period)
                periods.uppers[index][(row.figure.key, statistic)] = upper
                periods.notes.append(_overflow_note(row, title, located.period(index).value_heading, upper,
                                                    filename=filename))
        for figure in period.not_captured:
            periods.figures[index].append(figure)
            periods.uppers[index][(figure.key, statistic)] = bound


def _overflow_note(row: ListedRow, title: str, column: str, upper: int | None, *, filename: str) -> str:
    figure = row.figure
    bound = f"; from the section it is at most {upper:,}" if upper is not None else "; the report gives no bound"
    return (f"Warning: {filename + ', ' if filename else ''}{row.where}: {figure.owner}.{figure.object_name} "
            f"{column!r} in section {title!r} is printed as {row.printed or '#####'} (too wide for its column): "
            f"the figure is unknown and stored as NULL, not 0{bound}")


def _refuse_columns(headings: Sequence[str], title: str, *, filename: str, line: int) -> NoReturn:
    shown = ", ".join(clean(heading) for heading in headings if clean(heading)) or "no Owner column"
    raise AwrReportError(
        f"compare-period report: section {title!r} has columns tierscope does not read ({shown}); it reads one row "
        "per segment (Owner, Tablespace, Object Name, Subobject Name, Type) with the groups '% of Total', the "
        "statistic and '% of Captured', each with 1st and 2nd: import an awrrpt.sql report of each period instead",
        filename=filename, line=line)


def _no_rows(statistic: str, periods: _Periods) -> None:
    """A section that prints "No data exists": the statistic is read, no segment did any (no bound either)."""
    for bounds in periods.bounds:
        bounds.setdefault(statistic, None)


def _report(periods: _Periods, *, report_format: str, filename: str, line: int) -> AwrReport:
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
            segments=merge_segments(periods.figures[index], periods.uppers[index]),
            unlisted_bounds=dict(periods.bounds[index]),
        ))
    first = built[0]
    notes = [] if any(period.segments for period in built) else [
        "Warning: no segment figures in this compare-period report: its 'Top Segments Comparison by ...' "
        "sections are missing or list no segment; import an awrrpt.sql report of each period instead"]
    notes.extend(periods.notes)
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
