"""Is the hot standby fit to serve page reads: up, a standby, and at most DATABASE_REPLICA_MAX_LAG_S behind.

The lag compares positions in the WAL, which an idle primary cannot fool: a standby that has replayed
everything the primary wrote (``pg_last_wal_replay_lsn() >= pg_current_wal_lsn()``) is 0 s behind, however
old its last replayed transaction; one that has not is behind by the age of the last transaction it
replayed (``now() - pg_last_xact_replay_timestamp()``), an upper bound of its lag. The verdict is kept for
DATABASE_REPLICA_CHECK_EVERY_S per process, so pages do not ask the standby on every read.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass

from django.conf import settings
from django.db import DatabaseError, connections

from apps.core import sql as core_sql
from apps.core.dbrouter import PRIMARY, REPLICA, replica_configured
from apps.core.errors import first_line

NOT_CONFIGURED, OK, LAGGING, DOWN = "not configured", "ok", "lagging", "down"


@dataclass(frozen=True)
class ReplicaState:
    state: str
    lag_s: float | None  # None: not measured (down, not configured, or nothing replayed yet)
    detail: str

    @property
    def usable(self) -> bool:
        return self.state == OK


_lock = threading.Lock()
_cached: tuple[float, ReplicaState] | None = None


def replica_state_measure() -> ReplicaState:
    if not replica_configured():
        return ReplicaState(NOT_CONFIGURED, None, "DATABASE_REPLICA_URL is not set: the primary serves every read")
    max_lag = settings.DATABASE_REPLICA_MAX_LAG_S
    try:
        with connections[PRIMARY].cursor() as cursor:
            cursor.execute(core_sql.WAL_POSITION)
            primary_lsn = cursor.fetchone()[0]
    except DatabaseError as exc:
        return ReplicaState(DOWN, None, f"primary WAL position unreadable: {first_line(exc)}")
    replica = connections[REPLICA]
    try:
        with replica.cursor() as cursor:
            cursor.execute(core_sql.REPLAY_STATE, [primary_lsn])
            in_recovery, behind_bytes, replay_age_s = cursor.fetchone()
    except DatabaseError as exc:
        replica.close()  # a new connection next time: the standby may be back
        return ReplicaState(DOWN, None, f"standby unreachable: {first_line(exc)}; the primary serves every read")
    if not in_recovery:
        return ReplicaState(DOWN, None, "the replica database is not a standby (promoted?); the primary serves "
                                        "every read")
    if behind_bytes is not None and behind_bytes <= 0:
        return ReplicaState(OK, 0.0, "ok: replayed everything the primary wrote")
    lag_s = None if replay_age_s is None else round(max(replay_age_s, 0.0), 1)
    if lag_s is None or lag_s > max_lag:
        shown = "unknown" if lag_s is None else f"{lag_s:.0f} s"
        return ReplicaState(LAGGING, lag_s, f"standby {int(behind_bytes or 0)} bytes of WAL behind, lag {shown} "
                                            f"(more than {max_lag} s): the primary serves every read")
    return ReplicaState(OK, lag_s, f"ok: lag at most {lag_s:.1f} s")


def replica_state(*, fresh: bool = False) -> ReplicaState:
    """The standby's state, measured at most every DATABASE_REPLICA_CHECK_EVERY_S unless ``fresh``."""
    global _cached
    now = time.monotonic()
    with _lock:
        if not fresh and _cached is not None and now - _cached[0] < settings.DATABASE_REPLICA_CHECK_EVERY_S:
            return _cached[1]
    state = replica_state_measure()
    with _lock:
        _cached = (time.monotonic(), state)
    return state


def replica_usable() -> bool:
    return replica_state().usable
