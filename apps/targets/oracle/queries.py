"""The statement loader and runner of the live source: load sql/*.sql, bind, run, map times to UTC.

Every statement is a :class:`Statement` (a ``SQL_<NOUN>`` constant) with one ``fetch_<noun>(cursor, *,
mode, ...)`` that maps its rows to dataclasses. The statement text lives in ``sql/<noun>.sql`` (release
variants: ``features.RELEASE_VARIANTS``); statements that read Diagnostics Pack views are ``sql/pack_*.sql``
and :func:`load_sql` refuses to load them in nopack mode, so nopack can never send them to a database.

This module holds the loader (:func:`load_sql`, :func:`views_read`, :func:`statement_stems`), the runner
(:func:`_run`: driver errors become StatementFailed) and the time helpers. The constants and fetch functions
live with their concern, and are all reachable from here (``queries.fetch_segments``, PEP 562):

* ``queries_history``: AWR history (snapshots, DBA_HIST_SEG_STAT, pack_sysstat / pack_filestat);
* ``queries_samples``: the instance now (instance, instances, parameters, GV$ cumulative samples);
* ``queries_catalog``: what the database holds (segments, cache residency, tablespaces, files, ASM);
* ``containers``, ``segment_sql``: the multitenant naming, which SQL drives a segment.

Row mapping is by column name (cursor.description), and every server DATE/TIMESTAMP is turned
into an aware UTC datetime by the fetch functions, so callers only see UTC.
"""

from __future__ import annotations

import datetime as dt
import functools
import importlib
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import oracledb

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


def _int_or_none(value: Any) -> int | None:
    return None if value is None else int(value)


#: Statements and fetch functions that live with their concern, in modules that import this one. Named here
#: like the loader, resolved on first use (PEP 562) so either module may be imported first.
_ELSEWHERE: dict[str, str] = {
    **dict.fromkeys(("SQL_SNAPSHOTS", "SQL_SEG_STAT", "SQL_PACK_SYSSTAT", "SQL_PACK_FILESTAT", "fetch_snapshots",
                     "fetch_seg_stat", "fetch_pack_sysstat", "fetch_pack_filestat", "segment_type_for"),
                    "apps.targets.oracle.queries_history"),
    **dict.fromkeys(("SQL_INSTANCE", "SQL_INSTANCES", "SQL_PARAMETERS", "SQL_SEGSTAT_SAMPLE", "SQL_SYSSTAT_SAMPLE",
                     "SQL_FILESTAT_SAMPLE", "fetch_instance", "fetch_instances", "fetch_parameters",
                     "fetch_segstat_sample", "fetch_sysstat_sample", "fetch_filestat_sample"),
                    "apps.targets.oracle.queries_samples"),
    **dict.fromkeys(("SQL_SEGMENTS", "SQL_RESIDENCY", "SQL_RESIDENCY_RAC", "SQL_TABLESPACES", "SQL_DATAFILES",
                     "SQL_TABLESPACE_USAGE", "SQL_FREE_SPACE", "SQL_ASM_DISKGROUPS", "fetch_segments",
                     "fetch_residency", "fetch_tablespaces", "fetch_datafiles", "fetch_tablespace_usage",
                     "fetch_free_space", "fetch_asm_diskgroups"), "apps.targets.oracle.queries_catalog"),
    # containers.py: the multitenant naming; segment_sql.py: which SQL drives a segment.
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
