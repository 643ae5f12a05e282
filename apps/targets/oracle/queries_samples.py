"""The instance now: who it is, its parameters and its cumulative GV$ counters.

``SQL_INSTANCE`` (V$INSTANCE, V$DATABASE), ``SQL_INSTANCES`` (GV$INSTANCE), ``SQL_PARAMETERS`` and the
cumulative samples of every instance (GV$SEGSTAT, GV$SYSSTAT, GV$FILESTAT) that nopack mode differences
into intervals. Reached as ``queries.fetch_*`` too (the loader and runner are in
:mod:`apps.targets.oracle.queries`).
"""

from __future__ import annotations

from apps.targets.oracle.queries import Cursor, Statement, _int_or_none, _required_utc, _run
from apps.targets.oracle.query_rows import (
    FilestatSampleRow,
    InstanceListRow,
    InstanceRow,
    SegstatSampleRow,
    SysstatSampleRow,
)
from apps.targets.rows import SEGMENT_STAT_FIELDS

SQL_INSTANCE = Statement("instance")
SQL_INSTANCES = Statement("instances")
SQL_PARAMETERS = Statement("parameters")
SQL_SEGSTAT_SAMPLE = Statement("segstat_sample")
SQL_SYSSTAT_SAMPLE = Statement("sysstat_sample")
SQL_FILESTAT_SAMPLE = Statement("filestat_sample")


def fetch_instance(cursor: Cursor, *, mode: str) -> InstanceRow:
    """The connected instance and its database (V$INSTANCE, V$DATABASE)."""
    rows = _run(cursor, SQL_INSTANCE, mode=mode)
    if len(rows) != 1:
        raise ValueError(f"instance.sql returned {len(rows)} rows, expected 1")
    row = rows[0]
    offset = int(row["SERVER_UTC_OFFSET_MIN"] or 0)
    return InstanceRow(
        instance_number=int(row["INSTANCE_NUMBER"]),
        instance_name=str(row["INSTANCE_NAME"]),
        host_name=str(row["HOST_NAME"]),
        version=str(row["VERSION"]),
        startup_at=_required_utc(row["STARTUP_TIME"], offset, what="V$INSTANCE.STARTUP_TIME"),
        dbid=int(row["DBID"]),
        db_name=str(row["DB_NAME"]),
        server_utc_offset_min=offset,
    )


def fetch_instances(cursor: Cursor, *, mode: str, utc_offset_min: int) -> tuple[InstanceListRow, ...]:
    """Every open instance (GV$INSTANCE) with its startup time, and the server clock in UTC."""
    return tuple(
        InstanceListRow(
            inst_id=int(row["INST_ID"]),
            instance_number=int(row["INSTANCE_NUMBER"]),
            instance_name=str(row["INSTANCE_NAME"]),
            host_name=str(row["HOST_NAME"]),
            startup_at=_required_utc(row["STARTUP_TIME"], utc_offset_min, what="GV$INSTANCE.STARTUP_TIME"),
            status=str(row["STATUS"]),
            sampled_at=_required_utc(row["SAMPLED_AT_UTC"], 0, what="SYS_EXTRACT_UTC(SYSTIMESTAMP)"),
        )
        for row in _run(cursor, SQL_INSTANCES, mode=mode)
    )


def fetch_parameters(cursor: Cursor, *, mode: str) -> dict[str, str | None]:
    """The parameters tierscope reads (lower-case names -> VALUE)."""
    return {str(row["NAME"]).lower(): row["VALUE"] for row in _run(cursor, SQL_PARAMETERS, mode=mode)}


def fetch_segstat_sample(cursor: Cursor, *, mode: str) -> tuple[SegstatSampleRow, ...]:
    """Cumulative per-segment counters of every instance (GV$SEGSTAT, pivoted)."""
    return tuple(
        SegstatSampleRow(
            inst_id=int(row["INST_ID"]),
            obj_number=int(row["OBJ_NUMBER"]),
            dataobj_number=_int_or_none(row["DATAOBJ_NUMBER"]),
            totals={name: int(row[name.upper()] or 0) for name in SEGMENT_STAT_FIELDS},
        )
        for row in _run(cursor, SQL_SEGSTAT_SAMPLE, mode=mode)
    )


def fetch_sysstat_sample(cursor: Cursor, *, mode: str) -> tuple[SysstatSampleRow, ...]:
    """Cumulative flash-cache and request counters of every instance (GV$SYSSTAT)."""
    return tuple(
        SysstatSampleRow(inst_id=int(row["INST_ID"]), name=str(row["NAME"]), value=int(row["VALUE"] or 0))
        for row in _run(cursor, SQL_SYSSTAT_SAMPLE, mode=mode)
    )


def fetch_filestat_sample(cursor: Cursor, *, mode: str) -> tuple[FilestatSampleRow, ...]:
    """Cumulative data file IO per tablespace of every instance (GV$FILESTAT)."""
    return tuple(
        FilestatSampleRow(
            inst_id=int(row["INST_ID"]),
            tablespace_name=str(row["TABLESPACE_NAME"]),
            read_requests=int(row["READ_REQUESTS"] or 0),
            write_requests=int(row["WRITE_REQUESTS"] or 0),
            read_time_ms=None if row["READ_TIME_MS"] is None else float(row["READ_TIME_MS"]),
        )
        for row in _run(cursor, SQL_FILESTAT_SAMPLE, mode=mode)
    )
