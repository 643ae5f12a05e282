"""Map a parsed :class:`AwrReport` onto the row contract (``apps.targets.rows``).

An AWR report is one interval, so it becomes one :class:`Snapshot`:

* ``instance_number`` is the report's instance for awrrpt/awrrpti reports and
  **0 for a global RAC report** (awrgrpt), whose figures are cluster totals
  rather than one instance's.
* ``snap_id`` is the report's End Snap id.
* ``begin_at`` / ``end_at``: reports print local database time with no zone;
  the printed time is **treated as UTC** (documented limitation: a report
  from a database in another zone is shifted by that offset).
* the interval (``elapsed_s``) is the elapsed time the report states ("Elapsed: 2.77 (mins)"), not
  end - begin: a global report prints its snapshot times to the minute (180 s for 166 s, 8 % off).
* ``startup_at`` is the header's Startup Time (minute precision), treated as
  UTC like the snapshot times; for a global report, the latest startup of its
  instances (any restart inside the cluster starts a new baseline); when the
  report prints none, ``begin_at``.
* ``segment_stats`` carry only what the report prints; AWR lists only its
  top-N segments per statistic, so ``top_n_only`` is True. There are no
  object numbers and no sizes (hence no SegmentInfo). A request count the
  report does not show keeps the upper bound it gives (``read_requests_bound``:
  its ##### cell's, or the smallest row / the remainder of its section for a
  segment that section leaves out; the snapshot's ``unlisted_*_bound`` for
  segments listed nowhere); a name cut to its column is ``name_truncated``.
"""

from __future__ import annotations

import datetime as dt

from apps.targets.awr_report.model import AwrReport, AwrSegment
from apps.targets.rows import (
    Collection,
    DatabaseInfo,
    SegmentKey,
    SegmentStat,
    Snapshot,
    SysStat,
    TablespaceIO,
)

#: Report statistic key -> SegmentStat field (SEGMENT_STAT_FIELDS names).
SEGMENT_STAT_FIELD_FOR: dict[str, str] = {
    "physical_read_requests": "physical_read_requests",
    "physical_write_requests": "physical_write_requests",
    "physical_reads": "physical_reads_blocks",
    "physical_writes": "physical_writes_blocks",
    "physical_reads_direct": "physical_reads_direct_blocks",
    "physical_writes_direct": "physical_writes_direct_blocks",
    "optimized_physical_reads": "optimized_physical_reads",
    "logical_reads": "logical_reads",
    "db_block_changes": "db_block_changes",
    "table_scans": "table_scans",
}

#: DBA_SEGMENTS.SEGMENT_TYPE spellings a report's "Obj. Type" can stand for.
DBA_SEGMENT_TYPES: tuple[str, ...] = (
    "TABLE",
    "TABLE PARTITION",
    "TABLE SUBPARTITION",
    "INDEX",
    "INDEX PARTITION",
    "INDEX SUBPARTITION",
    "LOBSEGMENT",
    "LOBINDEX",
    "LOB PARTITION",
    "LOB SUBPARTITION",
    "CLUSTER",
    "NESTED TABLE",
    "TYPE2 UNDO",
    "ROLLBACK",
    "TEMPORARY",
)
_REPORT_TYPE_ALIASES: dict[str, str] = {"LOB": "LOBSEGMENT"}
_PARTITION_OF: dict[str, str] = {
    "TABLE": "TABLE PARTITION",
    "INDEX": "INDEX PARTITION",
    "LOBSEGMENT": "LOB PARTITION",
}


def report_to_collection(report: AwrReport) -> Collection:
    """The report as a :class:`Collection`: database info and one snapshot (see module doc); a
    compare-period report gives one snapshot per period."""
    if report.periods:
        return _compare_to_collection(report)
    begin_at = _as_utc(report.begin_time)
    snapshot = Snapshot(
        dbid=report.dbid,
        instance_number=0 if report.is_global else report.instances[0],
        snap_id=report.end_snap,
        database_instances=report.database_instances,
        begin_at=begin_at,
        end_at=_as_utc(report.end_time),
        startup_at=_startup_at(report, begin_at),
        segment_stats=tuple(
            _segment_stat(segment, truncated_types=report.report_format == "text", unlisted=report.unlisted_bounds)
            for segment in report.segments
        ),
        sysstats=tuple(SysStat(name=name, value=value) for name, value in report.sysstat.items()),
        tablespace_io=tuple(
            TablespaceIO(
                tablespace_name=name,
                read_requests=io.reads,
                write_requests=io.writes,
                read_time_ms=None if io.av_read_ms is None else io.reads * io.av_read_ms,
            )
            for name, io in report.tablespaces.items()
        ),
        top_n_only=True,
        elapsed_s=round(report.elapsed_minutes * 60, 3) if report.elapsed_stated else None,
        unlisted_read_requests_bound=report.unlisted_bounds.get("physical_read_requests"),
        unlisted_write_requests_bound=report.unlisted_bounds.get("physical_write_requests"),
    )
    database = DatabaseInfo(
        dbid=report.dbid,
        db_name=report.db_name,
        release=report.release,
        is_rac=report.rac,
        instances=report.instances,
    )
    return Collection(database=database, snapshots=(snapshot,), notes=_notes(report))


def _compare_to_collection(report: AwrReport) -> Collection:
    """A compare-period report: each period a snapshot of its own database, instance and interval (no
    startup time is printed: the interval's begin stands for it, as for a report that prints none)."""
    text = report.report_format == "text"
    snapshots = tuple(
        Snapshot(
            dbid=period.dbid,
            instance_number=period.instance_number,
            snap_id=period.end_snap,
            begin_at=_as_utc(period.begin_time),
            end_at=_as_utc(period.end_time),
            startup_at=_as_utc(period.begin_time),
            segment_stats=tuple(_segment_stat(segment, truncated_types=text, unlisted=period.unlisted_bounds)
                                for segment in period.segments),
            top_n_only=True,
            elapsed_s=round(period.elapsed_minutes * 60, 3) if period.elapsed_stated else None,
            unlisted_read_requests_bound=period.unlisted_bounds.get("physical_read_requests"),
            unlisted_write_requests_bound=period.unlisted_bounds.get("physical_write_requests"),
        )
        for period in report.periods
    )
    first = report.periods[0]
    database = DatabaseInfo(
        dbid=first.dbid, db_name=first.db_name, release=first.release, is_rac=first.rac,
        instances=tuple(sorted({p.instance_number for p in report.periods if p.dbid == first.dbid})),
    )
    source = f"AWR compare-period report {report.filename}" if report.filename else "AWR compare-period report"
    described = "; ".join(
        f"{p.label} period: DBID {p.dbid} instance {p.instance_number}, snaps {p.begin_snap}-{p.end_snap}"
        for p in report.periods)
    notes = [f"{source}: {described}; each period stored as a snapshot of its own, times read as UTC"]
    cut = sum(1 for period in report.periods for segment in period.segments if segment.name_truncated)
    if cut:
        notes.append(_cut_note(cut))
    return Collection(database=database, snapshots=snapshots, notes=(*notes, *report.notes))


def _cut_note(cut: int) -> str:
    return (f"Warning: text report: {cut} segment names are cut to their column width and no single full name "
            "fits them: they are kept as printed, marked cut, and get no DDL; import the sizes listing "
            "(segments.csv) with the report, or the HTML report, to complete them")


def dba_segment_type(printed: str, subobject_name: str, *, truncated: bool = False) -> str:
    """DBA_SEGMENTS spelling of a report's object type.

    ``LOB`` is ``LOBSEGMENT``. Text reports cut the type to 5 characters
    (``LOB P``, and ``TABLE`` for ``TABLE PARTITION``); with ``truncated``, a
    prefix is completed when only one type fits, and a bare TABLE/INDEX/LOB
    with a subobject name is taken as a partition (a subpartition cannot be
    told apart). Unknown types are returned as printed.

    >>> dba_segment_type("LOB", "")
    'LOBSEGMENT'
    >>> dba_segment_type("LOB P", "_LOB_P3044", truncated=True)
    'LOB PARTITION'
    """
    spelled = " ".join(printed.upper().split())
    spelled = _REPORT_TYPE_ALIASES.get(spelled, spelled)
    if truncated and subobject_name and spelled in _PARTITION_OF:
        return _PARTITION_OF[spelled]
    if spelled in DBA_SEGMENT_TYPES or not truncated or not spelled:
        return spelled
    candidates = [known for known in DBA_SEGMENT_TYPES if known.startswith(spelled)]
    return candidates[0] if len(candidates) == 1 else spelled


def _segment_stat(segment: AwrSegment, *, truncated_types: bool, unlisted: dict[str, int | None]) -> SegmentStat:
    # An unknown figure (printed as #####) stays None, as an unlisted one does; the run's notes say which.
    counts: dict[str, int | None] = {}
    for statistic, field_name in SEGMENT_STAT_FIELD_FOR.items():
        value = segment.stats.get(statistic)
        if value is not None and value >= 0:
            counts[field_name] = value
    key = SegmentKey(
        owner=segment.owner,
        object_name=segment.object_name,
        subobject_name=segment.subobject_name,
        object_type=dba_segment_type(
            segment.object_type, segment.subobject_name, truncated=truncated_types
        ),
        container=segment.container,
    )
    return SegmentStat(
        key=key,
        tablespace_name=segment.tablespace_name,
        obj_number=None,
        dataobj_number=None,
        **counts,
        read_requests_bound=_bound(segment, "physical_read_requests", unlisted),
        write_requests_bound=_bound(segment, "physical_write_requests", unlisted),
        name_truncated=segment.name_truncated,
    )


def _bound(segment: AwrSegment, statistic: str, unlisted: dict[str, int | None]) -> int | None:
    """An upper bound on a request count the report does not show for ``segment``: the bound of its #####
    cell, or when its section does not list it, the section's (bounds.py); None when known or unbounded."""
    if segment.stats.get(statistic) is not None:
        return None
    if statistic in segment.stats:  # listed, printed as #####
        return segment.bounds.get(statistic)
    return unlisted.get(statistic)


def _as_utc(moment: dt.datetime) -> dt.datetime:
    return moment.replace(tzinfo=dt.timezone.utc)


def _startup_at(report: AwrReport, begin_at: dt.datetime) -> dt.datetime:
    if report.is_global:
        startups = list(report.startup_times.values())
        return _as_utc(max(startups)) if startups else begin_at
    startup = report.startup_times.get(report.instances[0])
    return _as_utc(startup) if startup is not None else begin_at


def _notes(report: AwrReport) -> tuple[str, ...]:
    source = f"AWR report {report.filename}" if report.filename else "AWR report"
    notes = [f"{source}: snaps {report.begin_snap}-{report.end_snap}, times read as UTC"]
    if report.is_global:
        listed = ", ".join(str(number) for number in report.instances)
        notes.append(f"global RAC report: figures summed over instances {listed} (instance 0)")
    cut = sum(1 for segment in report.segments if segment.name_truncated)
    if cut:
        notes.append(_cut_note(cut))
    notes.extend(report.notes)
    return tuple(notes)
