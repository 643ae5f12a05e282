"""The PostgreSQL statements of the core app, and the helpers every app's statements are composed with.

Each app's raw PostgreSQL lives in one module, its ``sql`` module (apps.core.sql, apps.snapshots.sql,
apps.tiering.sql, apps.dashboard.sql); Django ORM queries stay ORM. There a statement is
composed with psycopg.sql: table names from the models' ``_meta.db_table`` (:func:`table`, never typed),
lists of columns as identifiers (:func:`names`), and a statement's variable parts (one of a few aggregates,
an optional bound) as composed fragments, never pasted into text. Values are always bound parameters (``%s``,
``%(name)s``). A composed statement goes to ``cursor.execute`` / ``cursor.copy`` as it is.
tests/test_sql_homes.py holds the rule.

This module's own statements are those of the session and transaction (settings, advisory locks, liveness,
replication) and the wrappers of apps.core.pgcopy.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from psycopg import sql

Query = sql.SQL | sql.Composed | str


def table(model: Any) -> sql.Identifier:
    """The quoted name of a model's table."""
    return sql.Identifier(model._meta.db_table)


def names(columns: Iterable[str], *, prefix: str | None = None) -> sql.Composed:
    """``columns`` as a comma-separated list of quoted identifiers (each qualified by ``prefix`` when given)."""
    return sql.SQL(", ").join(sql.Identifier(*((prefix,) if prefix else ()), column) for column in columns)


def statement(text: str, /, **parts: sql.Composable) -> sql.Composed:
    """``text`` (a statement written here or in an app's sql module) with its ``{name}`` parts filled in."""
    return sql.SQL(text).format(**parts)


def fragment(query: Query) -> sql.Composable:
    """A statement as a part of another: composed already, or SQL text Django generated (QuerySet.query)."""
    return query if isinstance(query, sql.Composable) else sql.SQL(query)


def any_of_array(model: Any, column: str, array_type: str) -> str:
    """The condition (text, for Django's QuerySet.extra) that ``column`` of ``model``'s table is one of the array
    parameter ``%s`` (of ``array_type``): one parameter, where an IN of a placeholder per value made psycopg
    parse a new query text for every number of values."""
    return statement("{column} = ANY(%s::{array_type}[])", column=sql.Identifier(model._meta.db_table, column),
                     array_type=sql.SQL(array_type)).as_string()


# --------------------------------------------------------------------------- the transaction's settings

#: Derived data whose loss in a crash is redone: the commit need not wait for its WAL to reach the disk.
SYNCHRONOUS_COMMIT_OFF = sql.SQL("SET LOCAL synchronous_commit = off")
JIT_OFF = sql.SQL("SET LOCAL jit = off")
NESTLOOP_OFF = sql.SQL("SET LOCAL enable_nestloop = off")
REPEATABLE_READ = sql.SQL("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
STATEMENT_TIMEOUT_SET = sql.SQL("SET LOCAL statement_timeout = %s")
WORK_MEM_SET = sql.SQL("SELECT set_config('work_mem', %s, true)")
LOCK_TIMEOUT_READ = sql.SQL("SELECT current_setting('lock_timeout')")
LOCK_TIMEOUT_SET = sql.SQL("SELECT set_config('lock_timeout', %s, true)")

# --------------------------------------------------------------------------- advisory locks (space, key)

ADVISORY_XACT_LOCK = sql.SQL("SELECT pg_advisory_xact_lock(%s, %s)")
ADVISORY_LOCK = sql.SQL("SELECT pg_advisory_lock(%s, %s)")
ADVISORY_TRY_LOCK = sql.SQL("SELECT pg_try_advisory_lock(%s, %s)")
ADVISORY_UNLOCK = sql.SQL("SELECT pg_advisory_unlock(%s, %s)")
ADVISORY_HOLDERS = sql.SQL(
    "SELECT l.pid, a.state, a.state_change FROM pg_locks l LEFT JOIN pg_stat_activity a ON a.pid = l.pid "
    "WHERE l.locktype = 'advisory' AND l.classid = %s AND l.objid = %s AND l.objsubid = 2 AND l.granted "
    "ORDER BY l.pid")

# --------------------------------------------------------------------------- liveness and replication

ALIVE = sql.SQL("SELECT 1")
# WAL positions as bytes from 0/0, comparable across the primary and its standby.
WAL_POSITION = sql.SQL("SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::bigint")
REPLAY_STATE = sql.SQL(
    "SELECT pg_is_in_recovery(), pg_wal_lsn_diff(pg_last_wal_replay_lsn(), '0/0')::bigint, "
    "extract(epoch FROM clock_timestamp() - pg_last_xact_replay_timestamp())::float8")

# --------------------------------------------------------------------------- apps.core.pgcopy


def packed_rows(query: Query, columns: Sequence[tuple[str, str]]) -> sql.Composed:
    """``query``'s rows counted and packed into one bytea: each row its values' binary send format
    (``<type>send``, ``columns``: (name, PostgreSQL type) in the query's order), the rows concatenated."""
    aliases = [f"c{i}" for i in range(len(columns))]
    packed = sql.SQL(" || ").join(
        sql.SQL("{send}({column})").format(send=sql.SQL(f"{pg_type}send"), column=sql.Identifier(alias))
        for alias, (_, pg_type) in zip(aliases, columns, strict=True))
    return statement("SELECT count(*), string_agg({packed}, ''::bytea) FROM ({query}) AS q({aliases})",
                     packed=packed, query=fragment(query), aliases=names(aliases))


def copy_in(table_name: sql.Identifier, columns: Iterable[str], *, binary: bool = False) -> sql.Composed:
    """COPY into ``table_name`` (:func:`table`, or a temporary table's name) of ``columns``, from the client."""
    return statement("COPY {table} ({columns}) FROM STDIN" + (" (FORMAT binary)" if binary else ""),
                     table=table_name, columns=names(columns))
