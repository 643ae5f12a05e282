"""Page reads from a hot standby, everything else from the primary (docs/scaling.md, "Read replica").

With ``DATABASE_REPLICA_URL`` set there is a second database alias, ``replica``. Reads go to it only:

* inside a request that :class:`apps.core.middleware.ReplicaReadsMiddleware` marked (a GET or HEAD of a
  page or API view, never the admin, the login pages or /healthz); tasks and management commands never
  mark anything, so they read the primary;
* for the data apps (targets, snapshots, tiering): sessions, users, login throttling and the audit log are
  read where they are written;
* until the request writes (it then reads its own writes from the primary), and never inside a transaction;
* while the standby is up and no more than ``DATABASE_REPLICA_MAX_LAG_S`` behind (apps.core.replica: a
  verdict cached for ``DATABASE_REPLICA_CHECK_EVERY_S``); otherwise the primary serves.

Every write goes to the primary.
"""

from __future__ import annotations

import contextvars
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.db import connections

REPLICA = "replica"
PRIMARY = "default"
REPLICA_APPS = frozenset({"targets", "snapshots", "tiering"})

# True within a request whose reads may go to the standby; False everywhere else (tasks, commands).
_reads_may_use_replica: contextvars.ContextVar[bool] = contextvars.ContextVar("reads_may_use_replica", default=False)


@contextmanager
def replica_reads() -> Iterator[None]:
    """Let this request's reads go to the standby (while it is fit to serve them)."""
    token = _reads_may_use_replica.set(True)
    try:
        yield
    finally:
        _reads_may_use_replica.reset(token)


def replica_configured() -> bool:
    return REPLICA in connections.settings


def read_alias(app_label: str) -> str:
    """Where a read of ``app_label``'s models goes now."""
    if not _reads_may_use_replica.get() or app_label not in REPLICA_APPS or not replica_configured():
        return PRIMARY
    if connections[PRIMARY].in_atomic_block:
        return PRIMARY
    from apps.core.replica import replica_usable  # cycle: apps.core.replica

    return REPLICA if replica_usable() else PRIMARY


class ReplicaRouter:
    def db_for_read(self, model: Any, **hints: Any) -> str:
        return read_alias(model._meta.app_label)

    def db_for_write(self, model: Any, **hints: Any) -> str:
        # From the first write on, this request reads its own writes: the primary.
        _reads_may_use_replica.set(False)
        return PRIMARY

    def allow_relation(self, obj1: Any, obj2: Any, **hints: Any) -> bool | None:
        # One database seen twice: a row read from the standby may refer to one read from the primary.
        if {obj1._state.db, obj2._state.db} <= {PRIMARY, REPLICA}:
            return True
        return None

    def allow_migrate(self, db: str, app_label: str, **hints: Any) -> bool | None:
        return db == PRIMARY
