"""What an AWR report parses into, and the one error it raises.

The HTML and text readers (``html.py``, ``text.py``) both produce a
:class:`RawReport` — the header plus flat lists of figures exactly as the
sections print them — and ``parser.py`` folds that into the public
:class:`AwrReport`. Pure: standard library only.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from apps.targets.awr_report.cells import SectionListing

#: Bigger uploads are refused before any parsing. A 60-minute report of a
#: busy RAC database is 2-5 MB and a report lists top-N rows whatever its window,
#: so 20 MB leaves room; the bound keeps a web worker under 200 MB for any
#: report (its text is up to twice the file, read beside the file's bytes:
#: tests/security/test_uploads.py). It was 50 MB.
MAX_REPORT_BYTES: int = 20 * 1024 * 1024
#: Bounds that keep parsing a report within a web worker's memory whatever its shape. The largest
#: section tierscope reads in the sample reports is 264 KB (a global RAC report's System Statistics);
#: an HTML section costs about 20 times its size as a tree. A 5 MB text report has about 60,000 lines.
MAX_SECTION_BYTES: int = 2 * 1024 * 1024
MAX_TEXT_LINES: int = 200_000
#: Oracle names are 128 bytes at most (12.2 on; 30 before: 128 is the hard limit, a report of 12.1 with a
#: longer one is not a real report either); object types as stored, 30 characters.
NAME_MAX_BYTES: int = 128
TYPE_MAX_CHARS: int = 30


class AwrReportError(ValueError):
    """The input is not a usable AWR report. The message is one line.

    It names the file, what is wrong and, for text reports when known, the
    line. ``filename`` and ``line`` are kept for callers that format their own.
    """

    def __init__(self, problem: str, *, filename: str = "", line: int | None = None) -> None:
        self.problem = problem
        self.filename = filename
        self.line = line
        where = filename or "<report>"
        if line is not None:
            where = f"{where}, line {line}"
        super().__init__(f"{where}: {problem}")


def name_too_long(field_name: str, text: str) -> str | None:
    """What is wrong with a name longer than Oracle allows (bytes in UTF-8; types in characters), else None.

    >>> name_too_long("object name", "X" * 128) is None
    True
    >>> name_too_long("object name", "É" * 100)
    "object name 'ÉÉÉÉÉÉÉÉÉÉÉÉÉÉÉÉÉÉÉÉÉÉÉÉÉÉÉÉÉÉÉÉÉÉÉÉÉÉÉÉ...' is 100 characters (200 bytes) long, more than the 128 bytes an Oracle name has"
    """
    shown = text[:40] + "..." if len(text) > 40 else text
    if field_name == "object type":
        if len(text) <= TYPE_MAX_CHARS:
            return None
        return f"{field_name} {shown!r} is {len(text)} characters long, more than the {TYPE_MAX_CHARS} an object type has"
    size = len(text.encode("utf-8", errors="replace"))
    if size <= NAME_MAX_BYTES:
        return None
    length = f"{len(text)} characters" if size == len(text) else f"{len(text)} characters ({size} bytes)"
    return f"{field_name} {shown!r} is {length} long, more than the {NAME_MAX_BYTES} bytes an Oracle name has"


def check_names(
    figures: Sequence[SegmentFigure | TablespaceFigure], *, section: str, filename: str, line: int | None
) -> None:
    """Refuse a name longer than Oracle allows, naming the section, the field and the line (the row's, when
    the caller checks row by row)."""
    for figure in figures:
        if isinstance(figure, TablespaceFigure):
            named = {"tablespace name": figure.name}
        else:
            named = {"owner": figure.owner, "tablespace name": figure.tablespace_name,
                     "object name": figure.object_name, "subobject name": figure.subobject_name,
                     "object type": figure.object_type}
        for field_name, text in named.items():
            problem = name_too_long(field_name, text)
            if problem is not None:
                raise AwrReportError(f"section {section!r}: {problem}", filename=filename, line=line)


@dataclass(frozen=True)
class ReportWindow:
    """The database and the interval a report (or one period of a compare-period report) covers: its name,
    DBID and release, whether it is RAC, the snapshots and their times, and the minutes between them."""

    db_name: str
    dbid: int
    release: str
    rac: bool
    begin_snap: int
    end_snap: int
    begin_time: dt.datetime
    end_time: dt.datetime
    elapsed_minutes: float


@dataclass(frozen=True)
class ReportHeader(ReportWindow):
    """The report's identity block: database, instances, snapshots, times."""

    instances: tuple[int, ...]
    is_global: bool
    #: Instance number -> startup time as the header prints it (minute precision).
    startup_times: dict[int, dt.datetime] = field(default_factory=dict)
    #: True when the report states its elapsed time ("Elapsed: 2.77 (mins)"); False when it is
    #: end_time - begin_time (times printed to the minute by global reports: up to 8 % off).
    elapsed_stated: bool = False


@dataclass(frozen=True)
class SegmentFigure:
    """One statistic of one segment as one section row prints it."""

    owner: str
    tablespace_name: str
    object_name: str
    subobject_name: str
    object_type: str
    statistic: str  # snake_case key, e.g. "physical_read_requests"
    value: int | None  # None: printed as ##### (too wide for its column), unknown
    instance_number: int | None = None  # per-instance rows of global reports
    #: Name fields printed cut to their column's width (text reports): "owner", "tablespace_name",
    #: "object_name" (their first characters) and "subobject_name" (its last characters).
    truncated_fields: tuple[str, ...] = ()
    #: The container (PDB) a CDB-level report names for the row ("PDB Name", else "Con Id" / "CON#" as
    #: printed); "" when the report prints no such column. Part of the key: PDBs' segments never merge.
    container: str = ""

    @property
    def key(self) -> tuple[str, str, str, str, str, str]:
        return (
            self.owner,
            self.tablespace_name,
            self.object_name,
            self.subobject_name,
            self.object_type,
            self.container,
        )


@dataclass(frozen=True)
class TablespaceFigure:
    """One row of Tablespace IO Stats (several rows per name in CDB / RAC)."""

    name: str
    reads: int
    av_read_ms: float | None
    writes: int
    container: str = ""  # the row's "PDB Name" in a CDB-level report, "" when none is printed


@dataclass(frozen=True)
class RawReport:
    """What a format reader found, before segments are merged."""

    header: ReportHeader
    segment_figures: tuple[SegmentFigure, ...]
    sysstat: dict[str, int]
    tablespace_figures: tuple[TablespaceFigure, ...]
    notes: tuple[str, ...] = ()
    listings: tuple[SectionListing, ...] = ()  # each "Segments by ..." section's rows (bounds.py)


@dataclass
class ReaderFindings:
    """What a format reader gathers section by section, until :meth:`raw_report` freezes it."""

    figures: list[SegmentFigure] = field(default_factory=list)
    sysstat: dict[str, int] = field(default_factory=dict)
    tablespaces: list[TablespaceFigure] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    listings: list[SectionListing] = field(default_factory=list)

    def raw_report(self, header: ReportHeader) -> RawReport:
        return RawReport(
            header=header,
            segment_figures=tuple(self.figures),
            sysstat=self.sysstat,
            tablespace_figures=tuple(self.tablespaces),
            notes=tuple(self.notes),
            listings=tuple(self.listings),
        )


@dataclass(frozen=True)
class AwrSegment:
    """A segment with every statistic the report shows for it.

    ``stats`` maps snake_case statistic keys to counts; a key is absent when
    no section of the report lists the segment for that statistic (AWR keeps
    only its top-N per statistic), and None when a section lists it but prints
    ``#####`` (the report's notes say so, with the bounds it gives).
    ``instance_numbers`` lists the instances whose per-instance rows
    contributed (global reports); empty otherwise.
    """

    owner: str
    tablespace_name: str
    object_name: str
    subobject_name: str
    object_type: str
    stats: dict[str, int | None]
    instance_numbers: tuple[int, ...] = ()
    #: Upper bounds of the statistics printed as ##### (None in ``stats``), from the rows around them.
    bounds: dict[str, int | None] = field(default_factory=dict)
    #: Name fields the report printed cut to their column (text reports; see SegmentFigure).
    truncated_fields: tuple[str, ...] = ()
    #: The PDB a CDB-level report lists the segment in (SegmentFigure.container); "" when it prints none.
    container: str = ""

    @property
    def name_truncated(self) -> bool:
        """The printed (owner, object, subobject) may not be the segment's full name."""
        return any(name != "tablespace_name" for name in self.truncated_fields)

    def to_json_dict(self) -> dict[str, Any]:
        identity: dict[str, Any] = {
            "owner": self.owner,
            "tablespace_name": self.tablespace_name,
            "object_name": self.object_name,
            "subobject_name": self.subobject_name,
            "object_type": self.object_type,
            "container": self.container,
            "name_truncated": self.name_truncated,
        }
        bounds = {f"{statistic}_bound": bound for statistic, bound in self.bounds.items()}
        return identity | dict(self.stats) | bounds


@dataclass(frozen=True)
class TablespaceIOStat:
    """Tablespace IO over the report window: read requests, mean read time, writes."""

    reads: int
    av_read_ms: float | None
    writes: int


@dataclass(frozen=True)
class AwrPeriod(ReportWindow):
    """One of the two periods of a compare-period report (awrddrpt.sql / awrddrpi.sql), with its own
    database, instance, snapshots, interval and segments (as an instance report of that period has them)."""

    label: str  # "1st" or "2nd"
    instance_number: int
    elapsed_stated: bool
    segments: tuple[AwrSegment, ...] = ()
    unlisted_bounds: dict[str, int | None] = field(default_factory=dict)

    def to_json_dict(self) -> dict[str, Any]:
        return {
            "label": self.label, "db_name": self.db_name, "dbid": self.dbid, "instance_number": self.instance_number,
            "release": self.release, "rac": self.rac, "begin_snap": self.begin_snap, "end_snap": self.end_snap,
            "begin_time": self.begin_time.isoformat(), "end_time": self.end_time.isoformat(),
            "elapsed_minutes": self.elapsed_minutes, "unlisted_bounds": dict(self.unlisted_bounds),
            "segments": [segment.to_json_dict() for segment in self.segments],
        }


@dataclass(frozen=True)
class AwrReport(ReportWindow):
    """One parsed AWR report (``awrrpt.sql``/``awrrpti.sql`` or ``awrgrpt.sql``).

    Times are naive: reports print no time zone. ``sysstat`` keeps only the
    flash-cache, optimized-read and IO-request statistics tierscope uses.
    ``notes`` are one-line warnings for the run (figures printed as ``#####``).
    """

    instances: tuple[int, ...]
    is_global: bool
    report_format: str  # "html" or "text"
    segments: tuple[AwrSegment, ...] = ()
    sysstat: dict[str, int] = field(default_factory=dict)
    tablespaces: dict[str, TablespaceIOStat] = field(default_factory=dict)
    #: A CDB-level report's Tablespace IO rows per (container, tablespace), as printed (``tablespaces`` sums
    #: a name's rows over its containers: the row contract keeps one figure per name). Empty without a PDB column.
    container_tablespaces: dict[tuple[str, str], TablespaceIOStat] = field(default_factory=dict)
    startup_times: dict[int, dt.datetime] = field(default_factory=dict)
    filename: str = ""
    notes: tuple[str, ...] = ()
    elapsed_stated: bool = False  # see ReportHeader.elapsed_stated
    #: An instance report of a RAC database: its "Number of Instances" (instances.py). None: not stated.
    database_instances: int | None = None
    #: Statistic -> upper bound on the figure of a segment its "Segments by" section does not list
    #: (bounds.py); a statistic without a section is not a key (no bound: unknown).
    unlisted_bounds: dict[str, int | None] = field(default_factory=dict)
    #: A compare-period report's two periods (the fields above are the 1st period's; ``segments`` is empty:
    #: each period has its own). Empty for every other report.
    periods: tuple[AwrPeriod, ...] = ()

    def to_json_dict(self) -> dict[str, Any]:
        """The report as plain JSON types, with exactly the documented keys."""
        return {
            "db_name": self.db_name,
            "dbid": self.dbid,
            "instances": list(self.instances),
            "release": self.release,
            "rac": self.rac,
            "begin_snap": self.begin_snap,
            "end_snap": self.end_snap,
            "begin_time": self.begin_time.isoformat(),
            "end_time": self.end_time.isoformat(),
            "elapsed_minutes": self.elapsed_minutes,
            "segments": [segment.to_json_dict() for segment in self.segments],
            "sysstat": dict(self.sysstat),
            "notes": list(self.notes),
            "unlisted_bounds": dict(self.unlisted_bounds),
            "periods": [period.to_json_dict() for period in self.periods],
            "tablespaces": {
                name: {"reads": io.reads, "av_read_ms": io.av_read_ms, "writes": io.writes}
                for name, io in self.tablespaces.items()
            },
            "container_tablespaces": [
                {"container": container, "name": name, "reads": io.reads, "av_read_ms": io.av_read_ms,
                 "writes": io.writes}
                for (container, name), io in self.container_tablespaces.items()
            ],
        }
