"""Database helpers shared by the apps."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any

from django.db import connection, transaction
from django.db.models.fields.json import KeyTransform

from apps.core import sql as core_sql


@contextmanager
def roomy_sorts(work_mem: str = "64MB") -> Iterator[None]:
    """A transaction whose sorts and hashes may each use ``work_mem`` (SET LOCAL).

    PostgreSQL's default of 4 MB sends the sorts and hash joins of a
    100k-segment refresh to disk and triples their time; the setting ends
    with the transaction.
    """
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(core_sql.WORK_MEM_SET, [work_mem])
        yield


def in_parallel(*calls: Callable[[], Any]) -> list[Any]:
    """Run ``calls`` at once, each but the first on a connection of its own; their results in order.

    Inside a transaction they run one after the other on this connection
    instead: another connection would neither see what the transaction has
    written nor be undone with it. The first error is raised once all ended.
    """
    if len(calls) < 2 or connection.in_atomic_block:
        return [call() for call in calls]
    with ThreadPoolExecutor(max_workers=len(calls) - 1) as pool:
        others = [pool.submit(_on_own_connection, call) for call in calls[1:]]
        first = calls[0]()
        return [first, *(future.result() for future in others)]


def _on_own_connection(call: Callable[[], Any]) -> Any:
    try:
        return call()
    finally:
        connection.close()  # the thread's own connection


def connection_reset() -> None:
    """After PostgreSQL went away mid-work: drop this thread's connection if it is broken, so the next
    query opens a new one. Inside a transaction it is left alone (the transaction's owner decides)."""
    if not connection.in_atomic_block:
        connection.close_if_unusable_or_obsolete()


def json_key(field_path: str, key: str) -> KeyTransform:
    """The JSON value at ``key`` of the JSON field ``field_path``: what ``values("<field_path>__<key>")`` reads,
    resolved from the field alone. Django (5.2) resolves ``"figures__version"`` by trying ``version`` as a field
    first and keeping the FieldError it catches in a local of its own frame (Query.setup_joins): a reference cycle
    that keeps the whole calling stack, a request's rows included, alive until the garbage collector runs. A
    1,000-row API page left its rows for the collector that way, and paid for its full collections."""
    return KeyTransform(key, field_path)

