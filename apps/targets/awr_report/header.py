"""Turning the header cells both readers collect into a checked :class:`ReportHeader`."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass, field

from apps.targets.awr_report.model import AwrReportError, ReportHeader
from apps.targets.awr_report.numbers import parse_count, parse_report_time
from apps.targets.awr_report.sections import release_major

#: AWR (and so awrrpt.sql) first shipped with Oracle Database 10g.
OLDEST_SUPPORTED_MAJOR = 10


@dataclass(frozen=True)
class InstanceFields:
    """One row of a global report's per-instance header block."""

    startup: dt.datetime | None
    begin: dt.datetime | None
    end: dt.datetime | None
    release: str


@dataclass
class HeaderFields:
    """Header cells as a reader found them, before checking (mutable while reading)."""

    title: str = ""
    values: dict[str, str] = field(default_factory=dict)  # normalized heading -> cell
    snaps: dict[str, int | None] = field(default_factory=dict)  # "begin"/"end"
    times: dict[str, dt.datetime | None] = field(default_factory=dict)
    elapsed_minutes: float | None = None
    is_global: bool = False
    instances: dict[int, InstanceFields] = field(default_factory=dict)

    def put_row(self, headings: Sequence[str], row: Sequence[str]) -> None:
        """Record each cell of ``row`` under its heading (first one wins)."""
        for heading, cell in zip(headings, row, strict=False):
            if heading:
                self.values.setdefault(heading, " ".join(cell.split()))

    def add_instance(
        self,
        number: int,
        *,
        startup: dt.datetime | None,
        begin: dt.datetime | None,
        end: dt.datetime | None,
        release: str,
    ) -> None:
        self.instances[number] = InstanceFields(startup, begin, end, " ".join(release.split()))

    def put_instance_rows(self, headings: Sequence[str], rows: Sequence[Sequence[str]]) -> None:
        """awrgrpt's per-instance block (I#, Startup, Begin/End Snap Time, Release), in either layout; rows
        without an instance number are not instances."""
        self.is_global = True
        for row in rows:
            named = dict(zip(headings, row, strict=False))
            number = parse_count(named.get("i#", ""))
            if number is not None:
                self.add_instance(
                    number,
                    startup=parse_report_time(named.get("startup", "")),
                    begin=parse_report_time(named.get("begin snap time", "")),
                    end=parse_report_time(named.get("end snap time", "")),
                    release=named.get("release", ""),
                )


def build_header(fields: HeaderFields, *, filename: str, line: int | None) -> ReportHeader:
    """Check the collected cells and build the header; AwrReportError names what is missing."""

    def missing(what: str) -> AwrReportError:
        return AwrReportError(f"report header has no {what}", filename=filename, line=line)

    db_name = fields.values.get("db name") or fields.values.get("name") or ""
    dbid = parse_count(fields.values.get("db id") or fields.values.get("id") or "")
    if not db_name:
        raise missing("DB Name")
    if dbid is None:
        raise missing("DB Id")
    release = _release(fields)
    _check_release(release, filename=filename, line=line)
    begin_snap, end_snap = fields.snaps.get("begin"), fields.snaps.get("end")
    if begin_snap is None or end_snap is None:
        raise missing("Begin Snap / End Snap ids")
    begin_time, end_time = _window(fields)
    if begin_time is None or end_time is None:
        raise missing("Begin Snap / End Snap times")
    if end_snap < begin_snap or end_time < begin_time:
        raise AwrReportError(
            f"End Snap {end_snap} ({end_time}) is before Begin Snap {begin_snap} ({begin_time})",
            filename=filename,
            line=line,
        )
    elapsed = fields.elapsed_minutes
    if elapsed is None:
        elapsed = round((end_time - begin_time).total_seconds() / 60, 2)
    instances, startups = _instances(fields)
    if not instances:
        raise missing("instance number (Inst Num)")
    return ReportHeader(
        db_name=db_name,
        dbid=dbid,
        instances=instances,
        release=release,
        rac=fields.values.get("rac", "").upper() == "YES" or fields.is_global,
        begin_snap=begin_snap,
        end_snap=end_snap,
        begin_time=begin_time,
        end_time=end_time,
        elapsed_minutes=elapsed,
        is_global=fields.is_global,
        startup_times=startups,
        elapsed_stated=fields.elapsed_minutes is not None,
    )


def _release(fields: HeaderFields) -> str:
    release = fields.values.get("release", "")
    if not release and fields.instances:
        release = next(iter(fields.instances.values())).release
    return release


def _check_release(release: str, *, filename: str, line: int | None) -> None:
    if not release:
        raise AwrReportError("report header has no Release", filename=filename, line=line)
    major = release_major(release)
    if major is None:
        raise AwrReportError(f"unparseable release {release!r}", filename=filename, line=line)
    if major < OLDEST_SUPPORTED_MAJOR:
        raise AwrReportError(
            f"unsupported release {release} (AWR reports exist from 10g on)",
            filename=filename,
            line=line,
        )


def _window(fields: HeaderFields) -> tuple[dt.datetime | None, dt.datetime | None]:
    """Begin/end snapshot times; a global report's window spans all its instances."""
    begin, end = fields.times.get("begin"), fields.times.get("end")
    if fields.instances and (begin is None or end is None):
        begins = [row.begin for row in fields.instances.values() if row.begin is not None]
        ends = [row.end for row in fields.instances.values() if row.end is not None]
        begin = begin or (min(begins) if begins else None)
        end = end or (max(ends) if ends else None)
    return begin, end


def _instances(fields: HeaderFields) -> tuple[tuple[int, ...], dict[int, dt.datetime]]:
    """Instance numbers (empty when the header prints none) and their startup times."""
    if fields.instances:
        numbers = tuple(sorted(fields.instances))
        startups = {
            number: row.startup
            for number, row in sorted(fields.instances.items())
            if row.startup is not None
        }
        return numbers, startups
    number = parse_count(fields.values.get("inst num", ""))
    if number is None:
        return (), {}
    startup = parse_report_time(fields.values.get("startup time", ""))
    return (number,), ({number: startup} if startup is not None else {})
