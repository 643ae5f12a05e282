"""``parse_report``: one AWR report (HTML or text) in, one :class:`AwrReport` out.

Decisions worth knowing:

* **Compare-period reports** (awrddrpt.sql / awrddrpi.sql) are read by
  ``compare.py``: one :class:`AwrPeriod` per period in ``AwrReport.periods``,
  each with its own segments and interval.
* **Formats.** HTML from every release is read with lxml.html
  (``html.py``); text reports are read by their fixed-width layout
  (``text.py``). Global RAC reports (awrgrpt.sql) are read in both (the text
  header by ``text_global.py``).
* **Truncated reports.** A report without its closing ``End of Report`` line
  is accepted only when its Segment Statistics are complete, i.e. another
  section heading follows the last "Segments by ..." / "Segment Statistics
  (Global)" section. Everything tierscope reads (header, Instance Activity
  Stats, Tablespace IO Stats) comes before those sections, so such a report
  loses nothing we use. Any other truncated report is refused, naming the
  section (and line) where it stops: a half table would silently understate
  the segments' IO.
* **Merging.** A segment appears once, keyed by (owner, tablespace, object,
  subobject, type, container) as printed. Figures for the same key and
  statistic are summed: the per-instance rows of global reports. A CDB-level
  report's "PDB Name" (or Con Id) column is the segment's container
  (``containers.py``): the same owner.object in two PDBs stays two segments.
  Text reports print truncated names (20 characters for objects, the last 10
  of subobjects, 5 of the type); they are kept as printed and a name that
  fills its column is marked cut (``AwrSegment.truncated_fields``); the
  import completes it only when exactly one known full name fits
  (``names.py``).
* **Bounds** (``bounds.py``). A segment a "Segments by" section leaves out
  did less than its smallest row and than its total less its rows:
  ``AwrReport.unlisted_bounds``; a ``#####`` cell's bound is in
  ``AwrSegment.bounds``.
* **Strict cells** (``cells.py``). A figure that is not a number (``2,04O,761``)
  refuses the report, naming file, line (and row in HTML), section, column and
  text. ``#####``, Oracle's mark for a figure too wide for its column, is read
  as unknown: None in the segment's stats (a sum with an unknown part is
  unknown), with a note in ``AwrReport.notes`` that names the segment and
  column and the bounds the section gives (rows around it, its %Total).
* **Nothing to read, said.** A report whose segments come out empty is read
  (its interval, tablespace IO and statistics) with a warning first among its
  notes, saying whether the sections are missing or list no segment and what
  to do; the import keeps it on the run and the target page shows it.
* **No section passed over in silence** (``coverage.py``). A segment section whose title, title line or
  columns the readers do not recognise is named in the notes, as is a statistic tierscope does not know.
  Text titles that run into their "DB/Inst:" with no space are read.
* **Hard-wrapped HTML** (spooled by SQL*Plus with a fixed LINESIZE, tags and
  numbers cut across lines) is joined back first (``wrap.py``).
* **Bad input** of any kind raises :class:`AwrReportError`, never another
  exception (the test suite fuzzes this).
"""

from __future__ import annotations

import codecs
import dataclasses
import re
from collections.abc import Sequence

from apps.targets.awr_report import compare, text_global
from apps.targets.awr_report import html as html_reader
from apps.targets.awr_report import text as text_reader
from apps.targets.awr_report.assembly import check_complete, merge_segments
from apps.targets.awr_report.bounds import overflow_uppers, unlisted_bounds
from apps.targets.awr_report.containers import container_tablespaces, merge_tablespaces, summed_tablespaces_notes
from apps.targets.awr_report.instances import database_instances
from apps.targets.awr_report.model import (
    MAX_REPORT_BYTES,
    MAX_TEXT_LINES,
    AwrReport,
    AwrReportError,
    RawReport,
)
from apps.targets.awr_report.sections import section_kind
from apps.targets.awr_report.wrap import unwrap, wrap_width

_HTML_MARKER_RE = re.compile(r"<(?:html|body|h1|table)\b", re.IGNORECASE)
_NOT_BLANK_RE = re.compile(r"\S")
_BINARY_SNIFF_BYTES = 8192
# Control characters other than tab, newlines and form feed (text reports use \f).
_CONTROL_BYTES = bytes(range(0, 9)) + bytes((11,)) + bytes(range(14, 32))


def parse_report(data: bytes | bytearray | str, *, filename: str = "") -> AwrReport:
    """Parse one AWR report, HTML or text, as awrrpt.sql / awrrpti.sql / awrgrpt.sql write it.

    ``filename`` is only used in error messages. Raises :class:`AwrReportError`
    (one line: file, what is wrong, and the line when known) for anything that
    is not a complete-enough AWR report of release 10g or later, and for input
    larger than :data:`MAX_REPORT_BYTES`.
    """
    document = _decode(data, filename=filename)
    try:
        is_html = _HTML_MARKER_RE.search(document) is not None
        if is_html and (width := wrap_width(document)) is not None:
            document = unwrap(document, width)
        if compare.is_compare_report(document):
            reader = compare.read_html if is_html else compare.read_text
            return reader(document, filename=filename)
        if is_html:
            (raw, titles), report_format = _read_html(document, filename), "html"
        else:
            (raw, titles), report_format = _read_text(document, filename), "text"
    except AwrReportError:
        raise
    except (ValueError, TypeError, IndexError, KeyError, AttributeError, RecursionError) as error:
        # The readers treat odd cells as absent; this is the last guard so a
        # caller only ever sees AwrReportError.
        raise AwrReportError(
            f"unreadable report ({type(error).__name__}: {error})", filename=filename
        ) from error
    report = _build_report(raw, report_format=report_format, filename=filename)
    if report.rac and not report.is_global:
        report = dataclasses.replace(report, database_instances=database_instances(document))
    return _with_no_segments_warning(report, titles)


def decode_report(data: bytes | bytearray | str, *, filename: str = "") -> str:
    """The report's text, for a caller that wants to drop the bytes before parsing (parse_report takes
    either); AwrReportError for input too large, binary or empty."""
    return _decode(data, filename=filename)


def _decode(data: bytes | bytearray | memoryview | str, *, filename: str) -> str:
    if isinstance(data, str):
        if len(data) > MAX_REPORT_BYTES:
            raise AwrReportError(
                f"report is larger than {MAX_REPORT_BYTES} bytes", filename=filename
            )
        document = data
    elif isinstance(data, (bytes, bytearray)):
        document = _decode_bytes(data, filename=filename)  # a bytearray is decoded without a copy
    elif isinstance(data, memoryview):
        document = _decode_bytes(bytes(data), filename=filename)
    else:
        raise AwrReportError(
            f"expected bytes or str, got {type(data).__name__}", filename=filename
        )
    if not _NOT_BLANK_RE.search(document):  # not strip(): that copies a 20 MB document
        raise AwrReportError("empty file", filename=filename)
    return document


def _decode_bytes(data: bytes | bytearray, *, filename: str) -> str:
    if len(data) > MAX_REPORT_BYTES:
        raise AwrReportError(
            f"report is {len(data)} bytes, more than the {MAX_REPORT_BYTES} allowed",
            filename=filename,
        )
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return data.decode("utf-16", errors="replace")
    sniff = data[:_BINARY_SNIFF_BYTES]
    control_count = sum(sniff.count(bytes((byte,))) for byte in _CONTROL_BYTES)
    if b"\x00" in sniff or control_count > len(sniff) // 20:
        raise AwrReportError(
            "binary data, not an AWR report (expected HTML or text)", filename=filename
        )
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        # Reports spooled on Windows or AIX are often in a single-byte charset.
        return data.decode("cp1252", errors="replace")


def _read_html(document: str, filename: str) -> tuple[RawReport, list[tuple[str, int]]]:
    sections = html_reader.split_sections(document)
    title_section = html_reader.find_title(sections, filename=filename)
    titles = [(section.title, section.line) for section in sections]
    check_complete(
        titles,
        html_reader.has_end_marker(document),
        filename=filename,
        end_line=document.count("\n") + 1,
    )
    return html_reader.read_report(sections, title_section=title_section, filename=filename), titles


def _read_text(document: str, filename: str) -> tuple[RawReport, list[tuple[str, int]]]:
    document = document.replace("\r\n", "\n").replace("\r", "\n")  # the same str when there is none
    # A list of lines costs 57 bytes a line beside its text: bound it before splitting.
    line_count = document.count("\n") + 1
    if line_count > MAX_TEXT_LINES:
        raise AwrReportError(
            f"report has {line_count} lines, more than the {MAX_TEXT_LINES} an AWR report has",
            filename=filename,
        )
    # Split on newlines only: str.splitlines() would also split at the form
    # feeds that precede page headings, and shift every line number.
    lines = document.split("\n")
    if lines and not lines[-1]:
        lines.pop()
    title_index = text_reader.find_title(lines, filename=filename)
    sections = text_reader.split_sections(lines)
    titles = [(section.title, section.line) for section in sections]
    check_complete(
        titles, text_reader.has_end_marker(lines), filename=filename, end_line=len(lines)
    )
    header_reader = text_global.header_fields if text_reader.is_global_title(lines[title_index]) else None
    raw = text_reader.read_report(lines, sections, title_index=title_index, filename=filename,
                                  header_reader=header_reader)
    return raw, titles


#: The start of the warning a report without segment figures is imported with (the run and the target page).
NO_SEGMENTS_WARNING = "Warning: no segment figures"


def _with_no_segments_warning(report: AwrReport, titles: Sequence[tuple[str, int]]) -> AwrReport:
    """A report that yields no segment imports what it has (its interval, tablespace IO, statistics) with a
    warning first among its notes, which the run keeps and the target page shows: nothing is silent."""
    if report.segments:
        return report
    listed = [title for title, _ in titles if section_kind(title) in ("segments", "global_segments")]
    if listed:
        problem = (
            f"its {len(listed)} 'Segments by ...' sections list no segment (each says no data exists): "
            "the database recorded no segment statistics in snapshots "
            f"{report.begin_snap}-{report.end_snap}; check that STATISTICS_LEVEL is TYPICAL or ALL and "
            "import a report of a busier interval"
        )
    else:
        problem = (
            "the report has no 'Segments by ...' sections (Segment Statistics): it was generated without "
            "them (a global RAC report or a report trimmed of them) or cut before them; generate the instance "
            "report again in full with awrrpt.sql (awrrpti.sql for another instance) over snapshots "
            f"{report.begin_snap}-{report.end_snap}, HTML or text, and import that"
        )
    warning = f"{NO_SEGMENTS_WARNING} in this report, so none of its segments got IO figures: {problem}."
    return dataclasses.replace(report, notes=(warning, *report.notes))


def _build_report(raw: RawReport, *, report_format: str, filename: str) -> AwrReport:
    header = raw.header
    return AwrReport(
        db_name=header.db_name,
        dbid=header.dbid,
        instances=header.instances,
        release=header.release,
        rac=header.rac,
        begin_snap=header.begin_snap,
        end_snap=header.end_snap,
        begin_time=header.begin_time,
        end_time=header.end_time,
        elapsed_minutes=header.elapsed_minutes,
        is_global=header.is_global,
        report_format=report_format,
        segments=merge_segments(raw.segment_figures, overflow_uppers(raw.listings)),
        sysstat=dict(raw.sysstat),
        tablespaces=merge_tablespaces(raw.tablespace_figures),
        container_tablespaces=container_tablespaces(raw.tablespace_figures),
        startup_times=dict(header.startup_times),
        filename=filename,
        notes=(*raw.notes, *summed_tablespaces_notes(raw.tablespace_figures, filename=filename)),
        elapsed_stated=header.elapsed_stated,
        unlisted_bounds=unlisted_bounds(raw.listings),
    )
