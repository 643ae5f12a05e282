"""The rows the live source's statements return before they become apps.targets.rows values (pure).

Read by apps.targets.oracle.queries (its ``fetch_*`` functions build them) and re-exported there.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from apps.targets.rows import SegmentStat

# The row dataclasses local to the Oracle source -------------------------------------------


@dataclass(frozen=True)
class InstanceRow:
    """V$INSTANCE + V$DATABASE of the connected instance."""

    instance_number: int
    instance_name: str
    host_name: str
    version: str
    startup_at: dt.datetime
    dbid: int
    db_name: str
    server_utc_offset_min: int  # server local time = UTC + this


@dataclass(frozen=True)
class InstanceListRow:
    """One GV$INSTANCE row, with the server clock read by the same statement."""

    inst_id: int
    instance_number: int
    instance_name: str
    host_name: str
    startup_at: dt.datetime
    status: str
    sampled_at: dt.datetime


@dataclass(frozen=True)
class SnapshotRow:
    """One DBA_HIST_SNAPSHOT row, times in UTC."""

    dbid: int
    instance_number: int
    snap_id: int
    startup_at: dt.datetime
    begin_at: dt.datetime
    end_at: dt.datetime
    error_count: int | None
    snap_flag: int | None


@dataclass(frozen=True)
class SegStatRow:
    """One DBA_HIST_SEG_STAT row: a segment's deltas in one snapshot of one instance."""

    instance_number: int
    snap_id: int
    stat: SegmentStat
    #: DBA_HIST_SEG_STAT.CON_ID (12.1 on): the container the row belongs to; None where not read (11.2).
    con_id: int | None = None


@dataclass(frozen=True)
class SegstatSampleRow:
    """GV$SEGSTAT pivoted: cumulative SEGMENT_STAT_FIELDS of one segment on one instance."""

    inst_id: int
    obj_number: int
    dataobj_number: int | None
    totals: dict[str, int]


@dataclass(frozen=True)
class SysstatSampleRow:
    """One GV$SYSSTAT counter of one instance (cumulative)."""

    inst_id: int
    name: str
    value: int


@dataclass(frozen=True)
class FilestatSampleRow:
    """GV$FILESTAT summed per tablespace on one instance (cumulative)."""

    inst_id: int
    tablespace_name: str
    read_requests: int
    write_requests: int
    read_time_ms: float | None
