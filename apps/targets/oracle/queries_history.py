"""The AWR history statements: snapshots, per-segment deltas and the Diagnostics Pack system figures.

``SQL_SNAPSHOTS`` / ``SQL_SEG_STAT`` read the pack-exempt DBA_HIST views (awr and nopack modes);
``SQL_PACK_SYSSTAT`` / ``SQL_PACK_FILESTAT`` are pack_*.sql (awr mode only). Each reads the snapshots after
the last stored one, with per-snapshot UTC offsets. Reached as ``queries.fetch_*`` too (the loader and
runner are in :mod:`apps.targets.oracle.queries`).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

from apps.targets.deltas import CumulativePoint
from apps.targets.oracle.features import Features
from apps.targets.oracle.queries import Cursor, Statement, _int_or_none, _required_utc, _run, to_server_local
from apps.targets.oracle.query_rows import SegStatRow, SnapshotRow
from apps.targets.rows import SEGMENT_STAT_FIELDS, SegmentKey, SegmentStat

SQL_SNAPSHOTS = Statement("snapshots")
SQL_SEG_STAT = Statement("seg_stat")
SQL_PACK_SYSSTAT = Statement("pack_sysstat")
SQL_PACK_FILESTAT = Statement("pack_filestat")


def _offset(row: dict[str, Any], server_offset_min: int) -> int:
    """Per-snapshot UTC offset (SNAP_TIMEZONE, NULL before 11.2.0.2) or the server's."""
    value = row.get("SNAP_TZ_OFFSET_MIN")
    return server_offset_min if value is None else int(value)


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
    # Keyword arguments named by SEGMENT_STAT_FIELDS: their names are known at run time only.
    counters: dict[str, Any] = {name: _int_or_none(row[name.upper()]) for name in SEGMENT_STAT_FIELDS}
    return SegmentStat(
        key=key,
        tablespace_name=str(row["TABLESPACE_NAME"] or ""),
        obj_number=_int_or_none(row["OBJ_NUMBER"]),
        dataobj_number=_int_or_none(row["DATAOBJ_NUMBER"]),
        space_allocated_bytes=_int_or_none(row["SPACE_ALLOCATED_BYTES"]),
        **counters,
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
