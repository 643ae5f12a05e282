"""A target's run lock held by another database session: a collection in progress elsewhere, a live worker's
session, or the session of a worker that died mid-statement."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django.db import connections

from apps.core.locks import LockSpace


@contextmanager
def run_lock_held(target_id: int) -> Iterator[None]:
    """Target ``target_id``'s run lock held by a session of its own until the block ends."""
    other = connections.create_connection("default")
    try:
        with other.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_lock(%s, %s)", [LockSpace.TARGET_RUN, target_id])
        yield
    finally:
        other.close()
