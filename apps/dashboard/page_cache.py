"""A viewer's page body rendered once per state of what it shows, kept in Django's cache (Redis).

Every viewer sees the same target page for the same data, query and day, so the body below the page's head
(KPIs, charts, the table, the storage map) is rendered once and read back while nothing it shows has
changed. Admins' pages carry forms with their own CSRF token and are always rendered.

What "nothing has changed" means is :func:`target_state`: one query over the target's rows that any
write to what the body shows changes. Runs, snapshots and rollups are append-only or versioned, so their
newest ids and versions say it; the few rows edited in place (the target, its tier set's tiers, its storage
map, its latest collection run and refresh) are fingerprinted by their row versions (``xmin``, the writing
transaction, and ``ctid``, the row version's place, which an update in the same transaction changes too).
The state is read before the body's data, so a body is never stored under a state older than its data.
Entries expire after ``PAGE_CACHE_SECONDS`` whatever happens (0 turns the cache off).

A cache that does not answer (Redis down) costs the saving, never the page: the body is rendered and the
failure logged once per process.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import logging
from collections.abc import Callable
from functools import cache

from django.conf import settings
from django.core.cache import caches
from django.db import connections
from django.http import HttpRequest
from psycopg import sql

from apps.core.dbrouter import read_alias
from apps.snapshots.models import CollectionRun, DataFile, Residency, Segment, SegmentMove, Snapshot, TablespaceSpace
from apps.snapshots.rollup_models import RollupDay, RollupHour
from apps.snapshots.sqlstats.models import SegmentSql
from apps.snapshots.storage_models import DiskGroup
from apps.targets.models import StorageLocation, TablespaceTier, Target
from apps.tiering.models import RecommendationRun, RecommendationRunFigures, Refresh, Tier, TierSet

log = logging.getLogger(__name__)
_warned = False


def _table(model) -> sql.Identifier:
    return sql.Identifier(model._meta.db_table)


@cache
def _state_statement() -> sql.Composed:
    """The parts of a target's state, each a small indexed read: newest ids and versions of what is appended,
    row versions of what is edited in place."""
    row = sql.SQL("xmin::text || ':' || ctid::text")
    parts = [
        sql.SQL("(SELECT {row} FROM {t} WHERE id = %(target)s)").format(row=row, t=_table(Target)),
        sql.SQL("(SELECT string_agg({row}, ',') FROM {s} WHERE {key} = (SELECT tier_set_id FROM {t} WHERE id = %(target)s))"
                ).format(row=row, s=_table(TierSet), key=sql.Identifier(TierSet._meta.pk.column), t=_table(Target)),
        sql.SQL("(SELECT string_agg({row}, ',' ORDER BY id) FROM {tier} WHERE tier_set_id = "
                "(SELECT tier_set_id FROM {t} WHERE id = %(target)s))").format(row=row, tier=_table(Tier), t=_table(Target)),
        *(sql.SQL("(SELECT string_agg(id::text || '@' || v, ',') FROM (SELECT id, {row} AS v FROM {m} "
                  "WHERE target_id = %(target)s ORDER BY id DESC LIMIT {n}) newest)").format(row=row, m=_table(model), n=n)
          for model, n in ((CollectionRun, 1), (Refresh, 1), (RecommendationRun, 2))),
        sql.SQL("(SELECT string_agg(run_id::text || '@' || {row}, ',') FROM {f} WHERE run_id IN "
                "(SELECT id FROM {r} WHERE target_id = %(target)s ORDER BY id DESC LIMIT 2))"
                ).format(row=row, f=_table(RecommendationRunFigures), r=_table(RecommendationRun)),
        *(sql.SQL("(SELECT string_agg({row}, ',' ORDER BY id) FROM {m} WHERE target_id = %(target)s)"
                  ).format(row=row, m=_table(model)) for model in (TablespaceTier, StorageLocation)),
        *(sql.SQL("(SELECT min(id)::text || '-' || max(id)::text FROM {m} WHERE target_id = %(target)s)"
                  ).format(m=_table(model)) for model in (Snapshot, DataFile, DiskGroup, TablespaceSpace, SegmentMove)),
        *(sql.SQL("(SELECT max(version)::text || '/' || count(*)::text FROM {m} WHERE target_id = %(target)s)"
                  ).format(m=_table(model)) for model in (RollupDay, RollupHour)),
        sql.SQL("(SELECT max(collected_at)::text FROM {m} WHERE target_id = %(target)s)").format(m=_table(Residency)),
        # The SQL behind the segments: a window's provisional rows are replaced by new ones at its newest end.
        sql.SQL("(SELECT max(id)::text FROM {m} WHERE target_id = %(target)s AND end_at = "
                "(SELECT max(end_at) FROM {m} WHERE target_id = %(target)s))").format(m=_table(SegmentSql)),
        # A segment's page: its own row (sizes and names are updated in place).
        sql.SQL("(SELECT {row} FROM {m} WHERE id = %(segment)s)").format(row=row, m=_table(Segment)),
    ]
    return sql.SQL("SELECT concat_ws('|', {})").format(sql.SQL(", ").join(parts))


def target_state(target_id: int, segment_id: int | None = None) -> str:
    """A digest that changes whenever anything a target's page body (or its segment's) shows changes (see the
    module's doc). Read where the page's reads go (the standby when it serves them: apps.core.dbrouter)."""
    with connections[read_alias(Target._meta.app_label)].cursor() as cursor:
        cursor.execute(_state_statement().as_string(cursor.connection), {"target": target_id, "segment": segment_id})
        state = cursor.fetchone()[0]
    return hashlib.blake2b(state.encode(), digest_size=16).hexdigest()


def _query_digest(request: HttpRequest) -> str:
    query = "&".join(f"{k}={v}" for k, values in sorted(request.GET.lists()) for v in values)
    return hashlib.blake2b(query.encode(), digest_size=12).hexdigest()


def page_body(request: HttpRequest, *, page: str, target_id: int, render: Callable[[], str],
              segment_id: int | None = None) -> str:
    """The body of a target's ``page`` for this request: from the cache when a viewer asked for it in the
    same state, query and UTC day (periods count back from today); rendered by ``render`` otherwise."""
    seconds = settings.PAGE_CACHE_SECONDS
    if not seconds or request.user.is_staff:
        return render()
    key = (f"page:{page}:{target_id}:{segment_id}:{target_state(target_id, segment_id)}:{_query_digest(request)}:"
           f"{dt.datetime.now(dt.UTC):%Y%m%d}")
    store = caches["pages"]
    try:
        body = store.get(key)
    except Exception as exc:  # noqa: BLE001 - any cache failure only costs the saving
        _cache_failed(exc)
        return render()
    if body is None:
        body = render()
        try:
            store.set(key, body, seconds)
        except Exception as exc:  # noqa: BLE001
            _cache_failed(exc)
    return body


def _cache_failed(exc: Exception) -> None:
    global _warned
    if not _warned:
        _warned = True
        log.warning("page cache not answering (%s: %s): pages are rendered each time until it does",
                    type(exc).__name__, exc)
