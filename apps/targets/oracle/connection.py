"""Connections to an Oracle target: Thin mode, one pool per worker process, bounded calls.

Pools must be created, used and closed in the same process (python-oracledb), and Celery's
prefork workers fork after importing this module, so the pool registry is emptied in every
child right after fork and pools are created lazily on first use in that child.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Callable, Iterator
from typing import Any, Protocol

import oracledb

#: Per round trip; a statement slower than this fails with DPY-4024 (retried as transient).
CALL_TIMEOUT_MS = 120_000
#: Rows per fetch round trip; V$SEGSTAT / DBA_SEGMENTS return tens of thousands of rows.
ARRAYSIZE = 1000
#: A collection uses one connection; a second one covers "test connection" from the admin.
POOL_MAX = 2
#: Milliseconds a collection waits for a pooled connection before failing.
POOL_WAIT_TIMEOUT_MS = 30_000
#: Seconds an idle pooled connection lives: targets are polled every few minutes at most.
POOL_IDLE_TIMEOUT_S = 300


class Connection(Protocol):
    """The part of an oracledb connection the source uses."""

    call_timeout: int

    def cursor(self) -> Any: ...

    def close(self) -> None: ...


#: connect(dsn=..., user=..., password=...) -> Connection; tests inject a fake.
Connect = Callable[..., Connection]

_pools: dict[tuple[str, str, str], oracledb.ConnectionPool] = {}
_pools_lock = threading.Lock()


def _forget_pools_after_fork() -> None:
    # The parent's pools and sockets are not usable in the child; drop them without closing
    # (closing would talk over the parent's sockets) and let the child create its own.
    global _pools_lock
    _pools.clear()
    _pools_lock = threading.Lock()


os.register_at_fork(after_in_child=_forget_pools_after_fork)


def pool_for(*, dsn: str, user: str, password: str) -> oracledb.ConnectionPool:
    """The pool of this process for (dsn, user), created on first use."""
    key = (dsn, user, password)
    with _pools_lock:
        pool = _pools.get(key)
        if pool is None:
            pool = oracledb.create_pool(
                user=user,
                password=password,
                dsn=dsn,
                min=0,
                max=POOL_MAX,
                increment=1,
                getmode=oracledb.POOL_GETMODE_TIMEDWAIT,
                wait_timeout=POOL_WAIT_TIMEOUT_MS,
                timeout=POOL_IDLE_TIMEOUT_S,
            )
            _pools[key] = pool
        return pool


def pooled_connect(*, dsn: str, user: str, password: str) -> Connection:
    """Acquire a connection from this process's pool (the default ``connect``)."""
    return pool_for(dsn=dsn, user=user, password=password).acquire()


def pool_count() -> int:
    """How many pools this process holds (for tests and diagnostics)."""
    return len(_pools)


@contextlib.contextmanager
def oracle_cursor(*, dsn: str, user: str, password: str, connect: Connect | None = None,
                  call_timeout_ms: int = CALL_TIMEOUT_MS, arraysize: int = ARRAYSIZE) -> Iterator[Any]:
    """A cursor with call timeout and arraysize set; the connection is released in ``finally``.

    arraysize is set before any execute because python-oracledb reads it on a statement's
    first execution only.
    """
    opener = connect or pooled_connect
    connection = opener(dsn=dsn, user=user, password=password)
    cursor = None
    try:
        connection.call_timeout = call_timeout_ms
        cursor = connection.cursor()
        cursor.arraysize = arraysize
        yield cursor
    finally:
        try:
            if cursor is not None:
                cursor.close()
        finally:
            # For a pooled connection close() returns it to the pool.
            connection.close()
