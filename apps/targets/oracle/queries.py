"""Every Oracle statement of the live source: load sql/*.sql, bind, map rows to dataclasses.

One ``SQL_<NOUN>`` constant and one ``fetch_<noun>(cursor, *, mode, ...)`` per statement. The
statement text lives in ``sql/<noun>.sql`` (release variants: ``features.RELEASE_VARIANTS``);
statements that read Diagnostics Pack views are ``sql/pack_*.sql`` and :func:`load_sql`
refuses to load them in nopack mode, so nopack can never send them to a database.

Row mapping is by column name (cursor.description), and every server DATE/TIMESTAMP is turned
into an aware UTC datetime here, so callers only see UTC.
"""

from __future__ import annotations

import datetime as dt
import functools
import importlib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import oracledb

from apps.targets.deltas import CumulativePoint
from apps.targets.oracle.errors import StatementFailed
from apps.targets.oracle.features import Features, check_mode
from apps.targets.oracle.query_rows import (  # noqa: F401 (re-exported: callers read them from here)
    FilestatSampleRow,
    InstanceListRow,
    InstanceRow,
    SegStatRow,
    SegstatSampleRow,
    SnapshotRow,
    SysstatSampleRow,
)
from apps.targets.oracle.space import Usage, data_file, disk_group_rows, free_space_rows, tablespace_space, usage_rows
from apps.targets.rows import (
    SEGMENT_STAT_FIELDS,
    DataFile,
    DiskGroup,
    Residency,
    SegmentInfo,
    SegmentKey,
    SegmentStat,
    TablespaceSpace,
)

SQL_DIR = Path(__file__).resolve().parent / "sql"
PACK_PREFIX = "pack_"
_STEM = re.compile(r"^[a-z][a-z0-9_]*$")
# A catalog view name after FROM/JOIN (not EXTRACT(HOUR FROM x)); sql/ never quotes identifiers.
_VIEW_AFTER_FROM = re.compile(
    r"\b(?:FROM|JOIN)\s+((?:SYS\.)?(?:(?:DBA|CDB|AWR|ALL|USER)_[A-Z0-9_$#]+|G?V\$[A-Z0-9_$#]+))",
    re.IGNORECASE,
)


class PackStatementRefused(ValueError):
    """A pack_*.sql statement was requested in nopack mode."""


class Cursor(Protocol):
    """The part of an oracledb cursor the fetch functions use."""

    description: Any

    def execute(self, statement: str, parameters: dict[str, Any] | None = None) -> Any: ...

    def fetchall(self) -> list[tuple[Any, ...]]: ...


def is_pack_statement(stem: str) -> bool:
    """True for statements that read Diagnostics Pack views (file name pack_*.sql)."""
    return stem.startswith(PACK_PREFIX)


def statement_stems() -> tuple[str, ...]:
    """Every statement file in sql/, by stem, sorted."""
    return tuple(sorted(path.stem for path in SQL_DIR.glob("*.sql")))


def load_sql(stem: str, *, mode: str) -> str:
    """Text of ``sql/<stem>.sql`` (read once, then cached), refusing pack_* in nopack mode."""
    check_mode(mode)
    if mode == "nopack" and is_pack_statement(stem):
        raise PackStatementRefused(
            f"statement {stem}.sql reads Diagnostics Pack views and mode is nopack: not loaded"
        )
    return _read_sql(stem)


@functools.cache
def _read_sql(stem: str) -> str:
    if not _STEM.match(stem):
        raise ValueError(f"statement name {stem!r} is not a sql/ file stem")
    path = SQL_DIR / f"{stem}.sql"
    if not path.is_file():
        raise FileNotFoundError(f"no statement file {path}")
    text = path.read_text(encoding="utf-8").strip()
    if text.endswith(";"):
        raise ValueError(f"{path}: a statement file must not end with ';' (python-oracledb rejects it)")
    return text


def views_read(sql: str) -> tuple[str, ...]:
    """Views a statement reads (names after FROM/JOIN), upper case, in order of appearance."""
    names: list[str] = []
    for match in _VIEW_AFTER_FROM.finditer(_strip_comments(sql)):
        name = match.group(1).upper().removeprefix("SYS.")
        if name not in names:
            names.append(name)
    return tuple(names)


def _strip_comments(sql: str) -> str:
    return "\n".join(line.split("--", 1)[0] for line in sql.splitlines())


@dataclass(frozen=True)
class Statement:
    """One statement noun; its file is the noun, or a release variant chosen by Features."""

    noun: str

    def stem(self, features: Features | None = None) -> str:
        if features is None:
            return self.noun
        return features.sql_file(self.noun)

    def text(self, *, mode: str, features: Features | None = None) -> str:
        return load_sql(self.stem(features), mode=mode)


SQL_INSTANCE = Statement("instance")
SQL_INSTANCES = Statement("instances")
SQL_PARAMETERS = Statement("parameters")
SQL_SNAPSHOTS = Statement("snapshots")
SQL_SEG_STAT = Statement("seg_stat")
SQL_SEGMENTS = Statement("segments")
SQL_RESIDENCY = Statement("residency")
SQL_RESIDENCY_RAC = Statement("residency_rac")
SQL_SEGSTAT_SAMPLE = Statement("segstat_sample")
SQL_SYSSTAT_SAMPLE = Statement("sysstat_sample")
SQL_FILESTAT_SAMPLE = Statement("filestat_sample")
SQL_PACK_SYSSTAT = Statement("pack_sysstat")
SQL_PACK_FILESTAT = Statement("pack_filestat")
SQL_TABLESPACES = Statement("tablespaces")
SQL_DATAFILES = Statement("datafiles")
SQL_TABLESPACE_USAGE = Statement("tablespace_usage")
SQL_FREE_SPACE = Statement("free_space")
SQL_ASM_DISKGROUPS = Statement("asm_diskgroups")


# --- helpers ------------------------------------------------------------------------------


def _execute(cursor: Cursor, stem: str, text: str, binds: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """Run one statement with bind variables; rows as {COLUMN: value}. Driver errors are
    re-raised as StatementFailed (chained) so the error mapping can name the statement."""
    try:
        cursor.execute(text, binds or {})
        names = [str(column[0]).upper() for column in cursor.description]
        return [dict(zip(names, row)) for row in cursor.fetchall()]
    except oracledb.Error as exc:
        raise StatementFailed(stem, views_read(text)) from exc


def _run(cursor: Cursor, statement: Statement, *, mode: str, binds: dict[str, Any] | None = None,
         features: Features | None = None) -> list[dict[str, Any]]:
    stem = statement.stem(features)
    return _execute(cursor, stem, statement.text(mode=mode, features=features), binds)


def to_utc(local: dt.datetime | None, offset_min: int) -> dt.datetime | None:
    """Server local time (naive, UTC + offset_min) to aware UTC."""
    if local is None:
        return None
    if local.tzinfo is not None:
        return local.astimezone(dt.timezone.utc)
    return (local - dt.timedelta(minutes=offset_min)).replace(tzinfo=dt.timezone.utc)


def to_server_local(moment: dt.datetime, offset_min: int) -> dt.datetime:
    """Aware UTC datetime to the naive server local time used in bind comparisons."""
    if moment.tzinfo is None:
        raise ValueError(f"expected an aware UTC datetime, got naive {moment!r}")
    return moment.astimezone(dt.timezone.utc).replace(tzinfo=None) + dt.timedelta(minutes=offset_min)


def _required_utc(local: dt.datetime | None, offset_min: int, *, what: str) -> dt.datetime:
    moment = to_utc(local, offset_min)
    if moment is None:
        raise ValueError(f"{what} is NULL")
    return moment


def _offset(row: dict[str, Any], server_offset_min: int) -> int:
    """Per-snapshot UTC offset (SNAP_TIMEZONE, NULL before 11.2.0.2) or the server's."""
    value = row.get("SNAP_TZ_OFFSET_MIN")
    return server_offset_min if value is None else int(value)


def _int_or_none(value: Any) -> int | None:
    return None if value is None else int(value)


def segment_type_for(object_type: str, object_name: str) -> str:
    """DBA_HIST_SEG_STAT_OBJ.OBJECT_TYPE (OBJ$ spelling) -> DBA_SEGMENTS.SEGMENT_TYPE spelling.

    >>> segment_type_for("LOB", "SYS_LOB0000076543C00004$$")
    'LOBSEGMENT'
    """
    if object_type == "LOB":
        return "LOBSEGMENT"
    # A LOB's index is an INDEX object named SYS_IL...$$ but a LOBINDEX segment.
    if object_type == "INDEX" and object_name.startswith("SYS_IL") and object_name.endswith("$$"):
        return "LOBINDEX"
    return object_type


# --- fetch functions, one per statement -----------------------------------------------------


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


def _history_binds(*, dbid: int, last_snap_id: int, begin_at: dt.datetime, utc_offset_min: int) -> dict[str, Any]:
    return {"dbid": dbid, "last_snap_id": last_snap_id, "begin_at": to_server_local(begin_at, utc_offset_min)}


def fetch_snapshots(cursor: Cursor, *, mode: str, dbid: int, last_snap_id: int, begin_at: dt.datetime,
                    utc_offset_min: int) -> tuple[SnapshotRow, ...]:
    """AWR snapshots of every instance with SNAP_ID > last_snap_id ending at or after begin_at."""
    binds = _history_binds(dbid=dbid, last_snap_id=last_snap_id, begin_at=begin_at, utc_offset_min=utc_offset_min)
    result = []
    for row in _run(cursor, SQL_SNAPSHOTS, mode=mode, binds=binds):
        offset = _offset(row, utc_offset_min)
        result.append(SnapshotRow(
            dbid=int(row["DBID"]),
            instance_number=int(row["INSTANCE_NUMBER"]),
            snap_id=int(row["SNAP_ID"]),
            startup_at=_required_utc(row["STARTUP_TIME"], offset, what="STARTUP_TIME"),
            begin_at=_required_utc(row["BEGIN_INTERVAL_TIME"], offset, what="BEGIN_INTERVAL_TIME"),
            end_at=_required_utc(row["END_INTERVAL_TIME"], offset, what="END_INTERVAL_TIME"),
            error_count=_int_or_none(row["ERROR_COUNT"]),
            snap_flag=_int_or_none(row["SNAP_FLAG"]),
        ))
    return tuple(result)


def fetch_seg_stat(cursor: Cursor, *, mode: str, features: Features, dbid: int, last_snap_id: int,
                   begin_at: dt.datetime, utc_offset_min: int) -> tuple[SegStatRow, ...]:
    """Per-segment deltas (DBA_HIST_SEG_STAT) of the snapshots fetch_snapshots returns."""
    binds = _history_binds(dbid=dbid, last_snap_id=last_snap_id, begin_at=begin_at, utc_offset_min=utc_offset_min)
    rows = _run(cursor, SQL_SEG_STAT, mode=mode, binds=binds, features=features)
    return tuple(
        SegStatRow(instance_number=int(row["INSTANCE_NUMBER"]), snap_id=int(row["SNAP_ID"]), stat=_segment_stat(row),
                   con_id=_int_or_none(row.get("CON_ID")))
        for row in rows
    )


def _segment_stat(row: dict[str, Any]) -> SegmentStat:
    object_name = str(row["OBJECT_NAME"])
    key = SegmentKey(
        owner=str(row["OWNER"]),
        object_name=object_name,
        subobject_name=str(row["SUBOBJECT_NAME"] or ""),
        object_type=segment_type_for(str(row["OBJECT_TYPE"] or ""), object_name),
    )
    counters = {name: _int_or_none(row[name.upper()]) for name in SEGMENT_STAT_FIELDS}
    return SegmentStat(
        key=key,
        tablespace_name=str(row["TABLESPACE_NAME"] or ""),
        obj_number=_int_or_none(row["OBJ_NUMBER"]),
        dataobj_number=_int_or_none(row["DATAOBJ_NUMBER"]),
        space_allocated_bytes=_int_or_none(row["SPACE_ALLOCATED_BYTES"]),
        **counters,
    )


def fetch_segments(cursor: Cursor, *, mode: str) -> tuple[SegmentInfo, ...]:
    """Every segment now (DBA_SEGMENTS), with object numbers and the LOB's owning column."""
    return tuple(_segment_info(row) for row in _run(cursor, SQL_SEGMENTS, mode=mode))


def _segment_info(row: dict[str, Any]) -> SegmentInfo:
    segment_type = str(row["SEGMENT_TYPE"])
    segment_name = str(row["SEGMENT_NAME"])
    lob_table = row["LOB_TABLE_NAME"]
    parent = None
    if lob_table:
        # LOB segments, LOB indexes and LOB partitions belong to the LOB's table.
        parent = str(lob_table)
    elif "PARTITION" in segment_type:
        # A (sub)partition's SEGMENT_NAME is its table/index.
        parent = segment_name
    partition = row["LOB_TABLE_PARTITION_NAME"]
    return SegmentInfo(
        key=SegmentKey(
            owner=str(row["OWNER"]),
            object_name=segment_name,
            subobject_name=str(row["PARTITION_NAME"] or ""),
            object_type=segment_type,
        ),
        tablespace_name=str(row["TABLESPACE_NAME"] or ""),
        bytes=int(row["BYTES"]),
        blocks=int(row["BLOCKS"]),
        obj_number=_int_or_none(row["OBJ_NUMBER"]),
        dataobj_number=_int_or_none(row["DATAOBJ_NUMBER"]),
        buffer_pool=row["BUFFER_POOL"],
        flash_cache=row["FLASH_CACHE"],
        cell_flash_cache=row["CELL_FLASH_CACHE"],
        partitioned_parent=parent,
        # Column name alone: quoted names may contain dots, so never "TABLE.COLUMN".
        lob_column=None if row["LOB_COLUMN_NAME"] is None else str(row["LOB_COLUMN_NAME"]),
        table_partition_name=None if partition is None else str(partition),
        # Optional: a segments.csv of an older extract (or sizes file) has no such columns.
        partition_position=_int_or_none(row.get("PARTITION_POSITION")),
        partition_interval=None if row.get("PARTITION_INTERVAL") is None else row["PARTITION_INTERVAL"] == "YES",
    )


def fetch_residency(cursor: Cursor, *, mode: str, rac: bool,
                    instance_numbers: dict[int, int]) -> tuple[Residency, ...]:
    """Flash vs buffer cache blocks per data object (V$BH, or GV$BH on RAC), grouped on the
    server. ``instance_numbers`` maps INST_ID to INSTANCE_NUMBER; rows with OBJD NULL are
    dropped."""
    statement = SQL_RESIDENCY_RAC if rac else SQL_RESIDENCY
    result = []
    for row in _run(cursor, statement, mode=mode):
        if row["DATAOBJ_NUMBER"] is None:
            continue
        inst_id = int(row["INST_ID"])
        result.append(Residency(
            instance_number=instance_numbers.get(inst_id, inst_id),
            dataobj_number=int(row["DATAOBJ_NUMBER"]),
            flash_blocks=int(row["FLASH_BLOCKS"] or 0),
            cache_blocks=int(row["CACHE_BLOCKS"] or 0),
        ))
    return tuple(result)


def fetch_tablespaces(cursor: Cursor, *, mode: str) -> tuple[TablespaceSpace, ...]:
    """Size, used and max size of every permanent tablespace, by name (mapped in oracle.space)."""
    rows = _run(cursor, SQL_TABLESPACES, mode=mode)
    return tuple(sorted((tablespace_space(row) for row in rows), key=lambda space: space.tablespace_name))


def fetch_datafiles(cursor: Cursor, *, mode: str) -> tuple[DataFile, ...]:
    """Every data and temp file with its tablespace and size (mapped in oracle.space), by type and file id."""
    rows = _run(cursor, SQL_DATAFILES, mode=mode)
    return tuple(sorted((data_file(row) for row in rows), key=lambda f: (f.file_type, f.file_id)))


def fetch_tablespace_usage(cursor: Cursor, *, mode: str) -> dict[str, Usage]:
    """Used and max size in blocks per tablespace (DBA_TABLESPACE_USAGE_METRICS; oracle.room uses it)."""
    return usage_rows(_run(cursor, SQL_TABLESPACE_USAGE, mode=mode))


def fetch_free_space(cursor: Cursor, *, mode: str) -> dict[str, int | None]:
    """Free extents' bytes per tablespace (DBA_FREE_SPACE; oracle.room's fallback)."""
    return free_space_rows(_run(cursor, SQL_FREE_SPACE, mode=mode))


def fetch_asm_diskgroups(cursor: Cursor, *, mode: str) -> tuple[DiskGroup, ...]:
    """The ASM disk groups the instance sees (V$ASM_DISKGROUP_STAT), by name."""
    return disk_group_rows(_run(cursor, SQL_ASM_DISKGROUPS, mode=mode))


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


def _history_point(row: dict[str, Any], *, key: tuple[Any, ...], values: Sequence[float],
                   utc_offset_min: int) -> CumulativePoint:
    offset = _offset(row, utc_offset_min)
    return CumulativePoint(
        key=key,
        snap_id=int(row["SNAP_ID"]),
        startup_at=_required_utc(row["STARTUP_TIME"], offset, what="STARTUP_TIME"),
        begin_at=_required_utc(row["BEGIN_INTERVAL_TIME"], offset, what="BEGIN_INTERVAL_TIME"),
        end_at=_required_utc(row["END_INTERVAL_TIME"], offset, what="END_INTERVAL_TIME"),
        values=tuple(values),
    )


def fetch_pack_sysstat(cursor: Cursor, *, mode: str, dbid: int, last_snap_id: int, begin_at: dt.datetime,
                       utc_offset_min: int) -> tuple[CumulativePoint, ...]:
    """DBA_HIST_SYSSTAT values (cumulative) keyed (dbid, instance_number, stat name); awr only.
    SNAP_ID >= last_snap_id so the last stored snapshot is there to difference against."""
    binds = _history_binds(dbid=dbid, last_snap_id=last_snap_id, begin_at=begin_at, utc_offset_min=utc_offset_min)
    return tuple(
        _history_point(row, key=(dbid, int(row["INSTANCE_NUMBER"]), str(row["STAT_NAME"])),
                       values=(int(row["VALUE"] or 0),), utc_offset_min=utc_offset_min)
        for row in _run(cursor, SQL_PACK_SYSSTAT, mode=mode, binds=binds)
    )


def fetch_pack_filestat(cursor: Cursor, *, mode: str, dbid: int, last_snap_id: int, begin_at: dt.datetime,
                        utc_offset_min: int) -> tuple[CumulativePoint, ...]:
    """DBA_HIST_FILESTATXS per tablespace (cumulative read requests, write requests, read ms)
    keyed (dbid, instance_number, tablespace); awr only."""
    binds = _history_binds(dbid=dbid, last_snap_id=last_snap_id, begin_at=begin_at, utc_offset_min=utc_offset_min)
    return tuple(
        _history_point(
            row,
            key=(dbid, int(row["INSTANCE_NUMBER"]), str(row["TABLESPACE_NAME"])),
            values=(int(row["READ_REQUESTS"] or 0), int(row["WRITE_REQUESTS"] or 0), float(row["READ_TIME_MS"] or 0)),
            utc_offset_min=utc_offset_min,
        )
        for row in _run(cursor, SQL_PACK_FILESTAT, mode=mode, binds=binds)
    )



#: Statements that live with the code they feed, in modules that import this one (containers.py: the
#: multitenant naming; segment_sql.py: which SQL drives a segment). Named here like the others, resolved on
#: first use (PEP 562) so either module may be imported first.
_ELSEWHERE: dict[str, str] = {
    **dict.fromkeys(("SQL_CONTAINERS", "fetch_containers"), "apps.targets.oracle.containers"),
    **dict.fromkeys(("SQL_PACK_ASH_SEGMENT_SQL", "SQL_PACK_ASH_RECENT_SQL", "SQL_PACK_SQLSTAT_SEGMENTS",
                     "SQL_SQL_SEGMENTS", "fetch_pack_ash_segment_sql", "fetch_pack_ash_recent_sql",
                     "fetch_pack_sqlstat_segments", "fetch_sql_segments"), "apps.targets.oracle.segment_sql"),
}


def __getattr__(name: str) -> Any:
    module = _ELSEWHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
