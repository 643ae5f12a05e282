"""Database helpers shared by the apps."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django.db import connection, transaction


@contextmanager
def roomy_sorts(work_mem: str = "64MB") -> Iterator[None]:
    """A transaction whose sorts and hashes may each use ``work_mem`` (SET LOCAL).

    PostgreSQL's default of 4 MB sends the sorts and hash joins of a
    100k-segment refresh to disk and triples their time; the setting ends
    with the transaction.
    """
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SELECT set_config('work_mem', %s, true)", [work_mem])
        yield


@contextmanager
def advisory_lock(namespace: int, key: int) -> Iterator[None]:
    """Hold PostgreSQL's session advisory lock (namespace, key) on this connection, inside or outside
    a transaction; released on exit, or by the server when the session ends (a killed worker)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_lock(%s, %s)", [namespace, key])
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_unlock(%s, %s)", [namespace, key])
