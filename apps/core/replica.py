"""Is the hot standby fit to serve page reads: up, a standby, and at most DATABASE_REPLICA_MAX_LAG_S behind.

The lag compares positions in the WAL, which an idle primary cannot fool. A standby that has replayed
everything the primary wrote is 0 s behind, however old its last replayed transaction. One that has not is
behind by at most the smaller of two upper bounds (``lag_bound``): the time since this process read a primary
position the standby has since replayed (it holds everything written before that read), and the age of the last
transaction it replayed (``now() - pg_last_xact_replay_timestamp()``: nothing committed before it is missing).
The first keeps a standby a few bytes behind after an idle spell (a checkpoint's or a snapshot's record, no
commit) from counting as behind by the whole spell. The verdict is kept for DATABASE_REPLICA_CHECK_EVERY_S per
process, so pages do not ask the standby on every read.
"""

from __future__ import annotations

import math
import threading
import time
from collections import deque
from collections.abc import Iterable
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
# The primary's WAL positions this process has read: (monotonic time before the read, position in bytes).
_positions: deque[tuple[float, int]] = deque(maxlen=64)


def lag_bound(*, now: float, samples: Iterable[tuple[float, int]], replayed: int | None,
              replay_age_s: float | None) -> float | None:
    """The most a standby that has not replayed everything can be behind, in seconds up to the next 0.1 and at
    least 0.1 (0 is for a standby that replayed everything, and only for it), or None when nothing bounds it (not
    measured, never 0).

    ``samples`` are the primary's positions read at monotonic times; ``replayed`` is the standby's replay
    position; ``replay_age_s`` the age of the last transaction it replayed (negative when it was replayed after
    the standby read its clock).
    """
    bounds = [now - at for at, position in samples if replayed is not None and position <= replayed]
    if replay_age_s is not None:
        bounds.append(replay_age_s)
    if not bounds:
        return None
    return max(math.ceil(round(min(bounds) * 10, 6)), 1) / 10  # an upper bound: rounded up, to 0.1 s


def _primary_position_seen(at: float, position: int) -> list[tuple[float, int]]:
    with _lock:
        if _positions and position < _positions[-1][1]:
            _positions.clear()  # the primary went back (restored to an earlier point): older readings are void
        _positions.append((at, position))
        return list(_positions)


def replica_state_measure() -> ReplicaState:
    if not replica_configured():
        return ReplicaState(NOT_CONFIGURED, None, "DATABASE_REPLICA_URL is not set: the primary serves every read")
    max_lag = settings.DATABASE_REPLICA_MAX_LAG_S
    read_at = time.monotonic()
    try:
        with connections[PRIMARY].cursor() as cursor:
            cursor.execute(core_sql.WAL_POSITION)
            primary_position = cursor.fetchone()[0]
    except DatabaseError as exc:
        return ReplicaState(DOWN, None, f"primary WAL position unreadable: {first_line(exc)}")
    samples = _primary_position_seen(read_at, primary_position)
    replica = connections[REPLICA]
    try:
        with replica.cursor() as cursor:
            cursor.execute(core_sql.REPLAY_STATE)
            in_recovery, replayed, replay_age_s = cursor.fetchone()
    except DatabaseError as exc:
        replica.close()  # a new connection next time: the standby may be back
        return ReplicaState(DOWN, None, f"standby unreachable: {first_line(exc)}; the primary serves every read")
    if not in_recovery:
        return ReplicaState(DOWN, None, "the replica database is not a standby (promoted?); the primary serves "
                                        "every read")
    if replayed is not None and replayed >= primary_position:
        return ReplicaState(OK, 0.0, "ok: replayed everything the primary wrote")
    lag_s = lag_bound(now=time.monotonic(), samples=samples, replayed=replayed, replay_age_s=replay_age_s)
    if lag_s is None or lag_s > max_lag:
        shown = "unknown" if lag_s is None else f"{lag_s:.0f} s"
        behind = "an unknown amount" if replayed is None else f"{primary_position - replayed} bytes"
        return ReplicaState(LAGGING, lag_s, f"standby {behind} of WAL behind, lag {shown} "
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
