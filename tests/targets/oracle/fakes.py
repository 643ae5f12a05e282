"""A fake python-oracledb connection that replays recorded rows (and a cursor that returns given rows).

A recording (tests/targets/oracle/recorded/*.json) looks like what Oracle returns:

    {"description": "...",
     "statements": {"<sql file stem>": [{"binds": {...}, "columns": [...], "rows": [[...], ...]}]}}

The cursor recognises a statement by its exact text (as loaded from apps/targets/oracle/sql/),
picks the first recorded call whose ``binds`` all equal the executed ones (datetimes compared
as ISO strings) and returns its rows, turning ISO datetime strings into naive datetimes the
way python-oracledb returns DATE/TIMESTAMP values. An unexpected statement or bind set fails.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from pathlib import Path
from typing import Any

from apps.targets.oracle import queries

RECORDED_DIR = Path(__file__).resolve().parent / "recorded"
_ISO = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?$")


def load_recording(name: str) -> dict[str, Any]:
    """The recording ``recorded/<name>.json``."""
    return json.loads((RECORDED_DIR / f"{name}.json").read_text(encoding="utf-8"))


def statement_by_text() -> dict[str, str]:
    """Statement text -> sql file stem, for every file in sql/."""
    return {queries._read_sql(stem): stem for stem in queries.statement_stems()}


def _value(cell: Any) -> Any:
    if isinstance(cell, str) and _ISO.match(cell):
        return dt.datetime.fromisoformat(cell)
    return cell


def _bind_text(value: Any) -> Any:
    return value.isoformat() if isinstance(value, dt.datetime) else value


class FakeCursor:
    """Replays a recording; remembers what was executed in ``executed`` (stem, binds)."""

    def __init__(self, recording: dict[str, Any], failures: dict[str, BaseException] | None = None) -> None:
        self._statements = recording["statements"]
        self._failures = failures or {}
        self._by_text = statement_by_text()
        self.executed: list[tuple[str, dict[str, Any]]] = []
        self.executed_texts: list[str] = []
        self.arraysize = 100
        self.arraysize_at_execute: list[int] = []
        self.description: list[tuple[str]] | None = None
        self._rows: list[tuple[Any, ...]] = []
        self.closed = False

    def execute(self, statement: str, parameters: dict[str, Any] | None = None) -> None:
        stem = self._by_text.get(statement)
        if stem is None:
            raise AssertionError(f"statement not loaded from sql/: {statement[:80]!r}")
        binds = dict(parameters or {})
        self.executed.append((stem, binds))
        self.executed_texts.append(statement)
        self.arraysize_at_execute.append(self.arraysize)
        if stem in self._failures:
            raise self._failures[stem]
        call = self._find_call(stem, binds)
        self.description = [(name,) for name in call["columns"]]
        self._rows = [tuple(_value(cell) for cell in row) for row in call["rows"]]

    def _find_call(self, stem: str, binds: dict[str, Any]) -> dict[str, Any]:
        calls = self._statements.get(stem)
        if calls is None:
            raise AssertionError(f"no recording for statement {stem}")
        for call in calls:
            wanted = call.get("binds", {})
            if all(_bind_text(binds.get(name)) == value for name, value in wanted.items()):
                return call
        raise AssertionError(f"no recorded call of {stem} for binds {binds!r}")

    def fetchall(self) -> list[tuple[Any, ...]]:
        rows, self._rows = self._rows, []
        return rows

    def close(self) -> None:
        self.closed = True


class FakeConnection:
    """Hands out one FakeCursor; records call_timeout and whether it was closed."""

    def __init__(self, cursor: FakeCursor) -> None:
        self._cursor = cursor
        self.call_timeout = 0
        self.closed = False

    def cursor(self) -> FakeCursor:
        return self._cursor

    def close(self) -> None:
        self.closed = True


class FakeConnect:
    """A ``connect`` for OracleSource: returns FakeConnections over one recording."""

    def __init__(self, recording: dict[str, Any], failures: dict[str, BaseException] | None = None,
                 connect_error: BaseException | None = None) -> None:
        self.cursor = FakeCursor(recording, failures)
        self.connections: list[FakeConnection] = []
        self.connect_error = connect_error
        self.calls: list[dict[str, str]] = []

    def __call__(self, *, dsn: str, user: str, password: str) -> FakeConnection:
        self.calls.append({"dsn": dsn, "user": user})
        if self.connect_error is not None:
            raise self.connect_error
        connection = FakeConnection(self.cursor)
        self.connections.append(connection)
        return connection


class RowsCursor:
    """A cursor returning the given rows (queries.Cursor)."""

    def __init__(self, columns: list[str], rows: list[list[Any]]) -> None:
        self.description = [(name,) for name in columns]
        self._rows = [tuple(row) for row in rows]

    def execute(self, statement: str, parameters: dict[str, Any] | None = None) -> None:
        return None

    def fetchall(self) -> list[tuple[Any, ...]]:
        return list(self._rows)
