"""PostgreSQL advisory locks: the one place that takes them.

A lock is ``(space, key)``: the space says what it serialises (:class:`LockSpace`), the key which one (a
target id, a run id). Two int4 keys, so every lock of ours shows in ``pg_locks`` as ``classid = space,
objid = key, objsubid = 2``.

A lock that is waited for is waited for at most ``LOCK_TIMEOUT_S`` (apps.core.config): a stuck holder (a
session idle in a transaction, a hung worker) then fails the waiter with :class:`LockTimeout`, which names
the lock and the backends holding it, instead of hanging it until a task's time limit kills it or for ever.
The timeout is set for the wait alone (PostgreSQL's ``lock_timeout``) and put back after it, so the other
statements of the caller's transaction wait as they did. pretix takes its locks this way
(pretix/base/services/locking.py: key spaces, a timeout, one exception).
"""

from __future__ import annotations

import enum
from collections.abc import Iterator
from contextlib import contextmanager

from django.db import OperationalError, connection, transaction

from apps.core import sql as core_sql
from apps.core.config import get_config

#: SQLSTATE lock_not_available: lock_timeout ran out.
_LOCK_NOT_AVAILABLE = "55P03"


class LockSpace(enum.IntEnum):
    """What a lock serialises; its value is the lock's first key. The values are fixed: a lock is shared
    with the workers of a running deployment, and the snapshots migration's trigger function takes
    ROLL_UP by its number (tests/core/test_locks.py holds them equal)."""

    #: One collection or import of a target at a time (apps.snapshots.runs), session lock, never waited
    #: for; the value is crc32(b"tierscope.collect"), as it was before the spaces had names.
    TARGET_RUN = 1_847_875_337
    #: One window-base builder per target (apps.snapshots.windows).
    WINDOW_BASE = 7_316_002
    #: One roll-up per target: a day's rollup is read, merged and written back (apps.snapshots.rollups).
    ROLL_UP = 7_316_003
    #: One recommendation store per target (apps.tiering.recommendations.services).
    RECOMMENDATION_STORE = 7_316_004
    #: Partition DDL of snapshots_segmentstat, between workers; key 0 (apps.snapshots.partitions).
    PARTITION_DDL = 7_316_017
    #: One rendering of a run's stored export lines at a time; key: the run (apps.tiering.recommendations.export_store).
    EXPORT_RENDER = 7_343
    #: One purge of a deleted target at a time, session lock, never waited for; key: the target
    #: (apps.targets.deletion: beat may send a purge again while a long one still runs).
    TARGET_PURGE = 7_316_018

    @property
    def label(self) -> str:
        return self.name.lower().replace("_", " ")


class LockTimeout(Exception):
    """A lock was not granted within LOCK_TIMEOUT_S: its holder is stuck or slow. One line naming the lock."""

    def __init__(self, space: LockSpace, key: int, *, timeout_s: int, holders: list[str]) -> None:
        held = "; ".join(holders) if holders else "its holder ended meanwhile"
        super().__init__(
            f"Gave up waiting for the {space.label} lock of {key} after {timeout_s} s "
            f"(pg_advisory_lock({int(space)}, {key})): held by {held}. A session stuck there can be ended "
            "with pg_terminate_backend(pid); TIERSCOPE_LOCK_TIMEOUT_S sets the wait.")
        self.space, self.key, self.timeout_s = space, key, timeout_s


def lock_xact(space: LockSpace, key: int) -> None:
    """Wait (at most LOCK_TIMEOUT_S) for the transaction lock ``(space, key)``, held until the current
    transaction ends. Call inside transaction.atomic: outside one it would end at once."""
    if not connection.in_atomic_block:
        raise RuntimeError(f"the {space.label} lock of {key} is a transaction lock: take it inside transaction.atomic")
    _wait(core_sql.ADVISORY_XACT_LOCK, space, key)


@contextmanager
def lock_session(space: LockSpace, key: int) -> Iterator[None]:
    """Wait (at most LOCK_TIMEOUT_S) for the session lock ``(space, key)`` and hold it on this connection,
    inside or outside a transaction; released on exit, or by the server when the session ends."""
    _wait(core_sql.ADVISORY_LOCK, space, key)
    try:
        yield
    finally:
        lock_release(space, key)


def lock_try(space: LockSpace, key: int) -> bool:
    """Take the session lock ``(space, key)`` if it is free, without waiting; True when taken (release it
    with :func:`lock_release`)."""
    with connection.cursor() as cursor:
        cursor.execute(core_sql.ADVISORY_TRY_LOCK, [int(space), key])
        return bool(cursor.fetchone()[0])


def lock_release(space: LockSpace, key: int) -> None:
    with connection.cursor() as cursor:
        cursor.execute(core_sql.ADVISORY_UNLOCK, [int(space), key])


def lock_holders(space: LockSpace, key: int) -> list[str]:
    """The backends holding ``(space, key)``, in words ("backend 123 (idle in transaction since 12:00:01 UTC)")."""
    with connection.cursor() as cursor:
        cursor.execute(core_sql.ADVISORY_HOLDERS, [int(space), key])
        rows = cursor.fetchall()
    return [f"backend {pid} ({state or 'state unknown'}"
            f"{f' since {changed:%Y-%m-%d %H:%M:%S} UTC' if changed else ''})" for pid, state, changed in rows]


def _wait(statement: core_sql.Query, space: LockSpace, key: int) -> None:
    timeout_s = int(get_config()["LOCK_TIMEOUT_S"])
    try:
        # A savepoint (or a transaction of its own): a timeout undoes only this, and the setting with it.
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(core_sql.LOCK_TIMEOUT_READ)
            previous = cursor.fetchone()[0]
            cursor.execute(core_sql.LOCK_TIMEOUT_SET, [f"{timeout_s}s"])
            cursor.execute(statement, [int(space), key])
            cursor.execute(core_sql.LOCK_TIMEOUT_SET, [previous])
    except OperationalError as error:
        if getattr(error.__cause__, "sqlstate", None) != _LOCK_NOT_AVAILABLE:
            raise
        raise LockTimeout(space, key, timeout_s=timeout_s, holders=lock_holders(space, key)) from None
