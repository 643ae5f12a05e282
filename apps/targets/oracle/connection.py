"""Connections to an Oracle target: Thin mode, one standalone connection per run, every wait bounded.

Why no pool: a collection uses one connection per run, and a pool's background thread is what
blocked for ever on a listener that accepts and never answers (it outlived the run and kept
`manage.py collect` from exiting).

Why the asyncio API behind a blocking facade: in Thin mode ``tcp_connect_timeout`` bounds only
the TCP connect. Right after it, python-oracledb clears the socket's timeout
(``Transport.set_from_socket`` calls ``sock.settimeout(None)``) and the CONNECT/ACCEPT exchange
and logon wait without limit; ``call_timeout`` exists only once connected, ``retry_count``
retries refusals, not silences, and ``expire_time`` sends keepalives that a hung listener's
kernel answers. Measured with 26.1.0 against a socket that accepts and never answers:
``oracledb.connect(tcp_connect_timeout=2)`` still waited after 60 s. The same driver's
``connect_async`` under ``asyncio.wait_for`` stops at the limit, closes the socket and needs no
thread, so each run drives its connection on a private event loop that is closed in ``finally``.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

import oracledb

#: Per round trip; a statement slower than this fails with DPY-4024 (retried as transient).
CALL_TIMEOUT_MS = 120_000
#: TCP connect + the listener's answer + logon.
CONNECT_TIMEOUT_S = 20.0
#: All of one collection's reading from Oracle (connect included).
RUN_TIMEOUT_S = 600.0
#: Rows per fetch round trip; V$SEGSTAT / DBA_SEGMENTS return tens of thousands of rows.
ARRAYSIZE = 1000
#: Past the driver's own call timeout (which sends a break and keeps the session), we give up on
#: the connection after this much more silence: the break itself went unanswered.
CALL_GRACE_S = 5.0
#: Logoff at the end of a run; a database that does not answer it is simply dropped.
CLOSE_TIMEOUT_S = 2.0

T = TypeVar("T")


@dataclass(frozen=True)
class Limits:
    """Time limits of one run against one target (tunables: apps.core.config)."""

    connect_timeout_s: float = CONNECT_TIMEOUT_S
    call_timeout_ms: int = CALL_TIMEOUT_MS
    run_timeout_s: float = RUN_TIMEOUT_S


class Deadline:
    """The end of a run, on the monotonic clock."""

    def __init__(self, limit_s: float) -> None:
        self.limit_s = limit_s
        self._ends_at = time.monotonic() + limit_s

    def remaining_s(self) -> float:
        return self._ends_at - time.monotonic()


class OracleTimeout(Exception):
    """A wait on the target passed its limit.

    ``phase`` is "connect" (TCP accepted, no answer), "call" (a round trip went silent past the
    driver's call timeout) or "run" (the whole run's deadline passed).
    """

    def __init__(self, phase: str, limit_s: float) -> None:
        super().__init__(f"{phase} limit of {limit_s:g} s passed")
        self.phase = phase
        self.limit_s = limit_s


class Connection(Protocol):
    """The part of an oracledb connection the source uses."""

    call_timeout: int

    def cursor(self) -> Any: ...

    def close(self) -> None: ...


#: connect(dsn=..., user=..., password=...) -> Connection; tests inject a fake.
Connect = Callable[..., Connection]


class BoundedConnection:
    """A blocking connection over python-oracledb's asyncio API, every call under a time limit."""

    def __init__(self, loop: asyncio.AbstractEventLoop, connection: oracledb.AsyncConnection) -> None:
        self._loop = loop
        self._connection = connection

    @property
    def call_timeout(self) -> int:
        return int(self._connection.call_timeout)

    @call_timeout.setter
    def call_timeout(self, value_ms: int) -> None:
        self._connection.call_timeout = value_ms

    def run(self, work: Callable[[], Awaitable[T]]) -> T:
        """Run one round trip; silence past the call timeout (plus grace) drops the connection."""
        limit_s = self.call_timeout / 1000 + CALL_GRACE_S if self.call_timeout else None
        try:
            return _run_bounded(self._loop, work, limit_s)
        except TimeoutError:
            raise OracleTimeout("call", limit_s or 0) from None

    def cursor(self) -> BoundedCursor:
        return BoundedCursor(self, self._connection.cursor())

    def close(self) -> None:
        try:
            with contextlib.suppress(oracledb.Error, TimeoutError, OSError):
                _run_bounded(self._loop, self._connection.close, CLOSE_TIMEOUT_S)
        finally:
            _close_loop(self._loop)


class _CursorProxy:
    """What queries.py uses of a cursor, passed through to ``_cursor``; subclasses bound execute and fetchall."""

    _cursor: Any

    @property
    def arraysize(self) -> int:
        return int(self._cursor.arraysize)

    @arraysize.setter
    def arraysize(self, value: int) -> None:
        self._cursor.arraysize = value

    @property
    def description(self) -> Any:
        return self._cursor.description

    def close(self) -> None:
        self._cursor.close()


class BoundedCursor(_CursorProxy):
    """The cursor calls queries.py makes (execute, description, fetchall), each bounded."""

    def __init__(self, connection: BoundedConnection, cursor: Any) -> None:
        self._connection = connection
        self._cursor = cursor

    def execute(self, statement: str, parameters: dict[str, Any] | None = None) -> None:
        self._connection.run(lambda: self._cursor.execute(statement, parameters or {}))

    def fetchall(self) -> list[tuple[Any, ...]]:
        return self._connection.run(self._cursor.fetchall)


def _run_bounded(loop: asyncio.AbstractEventLoop, work: Callable[[], Awaitable[T]], limit_s: float | None) -> T:
    # work() is called inside the loop: connect_async needs a running loop.
    async def bounded() -> T:
        return await asyncio.wait_for(work(), limit_s)

    return _run_until_complete(loop, bounded())


def _run_until_complete(loop: asyncio.AbstractEventLoop, coroutine: Awaitable[T]) -> T:
    """``loop.run_until_complete``, also from a thread where another event loop runs (an async caller,
    or a library driving one, such as Playwright in the browser tests): then on a helper thread, joined
    before returning, so no thread outlives the call."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return loop.run_until_complete(coroutine)
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="oracle-call") as helper:
        return helper.submit(loop.run_until_complete, coroutine).result()


def _close_loop(loop: asyncio.AbstractEventLoop) -> None:
    # Host names are resolved in the loop's default executor: join its threads, so none outlives the run.
    try:
        _run_until_complete(loop, loop.shutdown_default_executor())
    finally:
        loop.close()


def bounded_connect(*, dsn: str, user: str, password: str, timeout_s: float) -> BoundedConnection:
    """A standalone Thin connection that is up within ``timeout_s`` or raises OracleTimeout("connect").

    Half the limit goes to the TCP connect (a host that drops the SYN fails as DPY-6005 "timed
    out"); the rest of the time is for the listener's answer and the logon.
    """
    loop = asyncio.new_event_loop()
    try:
        connection = _run_bounded(
            loop,
            lambda: oracledb.connect_async(user=user, password=password, dsn=dsn, tcp_connect_timeout=timeout_s / 2),
            timeout_s,
        )
    except TimeoutError:
        _close_loop(loop)
        raise OracleTimeout("connect", timeout_s) from None
    except BaseException:
        _close_loop(loop)
        raise
    return BoundedConnection(loop, connection)


class DeadlineCursor(_CursorProxy):
    """A cursor whose every round trip fits in what is left of the run.

    Before each call the connection's call timeout becomes min(call timeout, time left); a call
    that would start after the deadline raises OracleTimeout("run") instead.
    """

    def __init__(self, connection: Connection, cursor: Any, *, deadline: Deadline, call_timeout_ms: int) -> None:
        self._connection = connection
        self._cursor = cursor
        self._deadline = deadline
        self._call_timeout_ms = call_timeout_ms

    def _bound_next_call(self) -> None:
        left_ms = int(self._deadline.remaining_s() * 1000)
        if left_ms <= 0:
            raise OracleTimeout("run", self._deadline.limit_s)
        self._connection.call_timeout = min(self._call_timeout_ms, left_ms) if self._call_timeout_ms else left_ms

    def execute(self, statement: str, parameters: dict[str, Any] | None = None) -> None:
        self._call(self._cursor.execute, statement, parameters)

    def fetchall(self) -> list[tuple[Any, ...]]:
        return self._call(self._cursor.fetchall)

    def _call(self, call: Callable[..., T], *args: Any) -> T:
        self._bound_next_call()
        try:
            return call(*args)
        except (oracledb.Error, OracleTimeout) as exc:
            # A call cut short because the run's time was up is the run's timeout, not the call's.
            if self._deadline.remaining_s() <= 0:
                raise OracleTimeout("run", self._deadline.limit_s) from exc
            raise


@contextlib.contextmanager
def oracle_cursor(*, dsn: str, user: str, password: str, connect: Connect | None = None,
                  limits: Limits | None = None, deadline: Deadline | None = None,
                  arraysize: int = ARRAYSIZE) -> Iterator[Any]:
    """A cursor with call timeout, run deadline and arraysize set; the connection is closed in ``finally``.

    arraysize is set before any execute because python-oracledb reads it on a statement's
    first execution only.
    """
    limits = limits or Limits()
    deadline = deadline or Deadline(limits.run_timeout_s)
    if connect is None:
        connect_s = min(limits.connect_timeout_s, deadline.remaining_s())
        if connect_s <= 0:
            raise OracleTimeout("run", deadline.limit_s)
        connection: Connection = bounded_connect(dsn=dsn, user=user, password=password, timeout_s=connect_s)
    else:
        connection = connect(dsn=dsn, user=user, password=password)
    cursor = None
    try:
        connection.call_timeout = limits.call_timeout_ms
        cursor = DeadlineCursor(connection, connection.cursor(), deadline=deadline,
                                call_timeout_ms=limits.call_timeout_ms)
        cursor.arraysize = arraysize
        yield cursor
    finally:
        try:
            if cursor is not None:
                cursor.close()
        finally:
            connection.close()
