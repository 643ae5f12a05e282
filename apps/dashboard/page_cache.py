"""A viewer's page body rendered once per state of what it shows, kept in Django's cache (Redis).

Every viewer sees the same target page for the same data, query and day, so the body below the page's head
(KPIs, charts, the table, the storage map) is rendered once and read back while nothing it shows has
changed. Admins' bodies carry forms (the storage map's) and are kept apart from viewers'; their CSRF token
is rendered as a placeholder and each response gets its own session's token in its place.

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
from typing import Any

from django.conf import settings
from django.core.cache import caches
from django.db import connections
from django.http import HttpRequest
from django.middleware.csrf import get_token
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe

from apps.core.dbrouter import read_alias
from apps.dashboard.sql import PAGE_STATE
from apps.targets.models import Target

log = logging.getLogger(__name__)
_warned = False


def target_state(target_id: int, segment_id: int | None = None) -> str:
    """A digest that changes whenever anything a target's page body (or its segment's) shows changes (see the
    module's doc). Read where the page's reads go (the standby when it serves them: apps.core.dbrouter)."""
    with connections[read_alias(Target._meta.app_label)].cursor() as cursor:
        cursor.execute(PAGE_STATE, {"target": target_id, "segment": segment_id})
        state = cursor.fetchone()[0]
    return hashlib.blake2b(state.encode(), digest_size=16).hexdigest()


def _query_digest(request: HttpRequest) -> str:
    query = "&".join(f"{k}={v}" for k, values in sorted(request.GET.lists()) for v in values)
    return hashlib.blake2b(query.encode(), digest_size=12).hexdigest()


# What a kept body holds where a form's CSRF token goes; never a token (those are 64 letters and digits).
CSRF_PLACEHOLDER = "csrf-token-of-this-response"


def page_body(request: HttpRequest, template: str, context: Callable[[], dict[str, Any]], *, target_id: int,
              segment_id: int | None = None) -> SafeString:
    """``template`` rendered with ``context()`` for this request: from the cache when someone of the same role
    asked for it in the same state, query and UTC day (periods count back from today), rendered otherwise (and
    kept)."""
    seconds = settings.PAGE_CACHE_SECONDS
    if not seconds:
        return mark_safe(render_to_string(template, context(), request=request))  # noqa: S308 - our template's output

    def rendered() -> str:  # what is kept: the same for everyone of the role, so no token of this session
        return render_to_string(template, {**context(), "csrf_token": CSRF_PLACEHOLDER}, request=request)

    role = "admin" if request.user.is_staff else "viewer"  # the body's only difference by user (its forms)
    key = (f"page:{template}:{role}:{target_id}:{segment_id}:{target_state(target_id, segment_id)}:"
           f"{_query_digest(request)}:{dt.datetime.now(dt.UTC):%Y%m%d}")
    store = caches["pages"]
    try:
        body = store.get(key)
    except Exception as exc:  # noqa: BLE001 - any cache failure only costs the saving
        _cache_failed(exc)
        body = rendered()
    else:
        if body is None:
            body = rendered()
            try:
                store.set(key, body, seconds)
            except Exception as exc:  # noqa: BLE001
                _cache_failed(exc)
    if CSRF_PLACEHOLDER in body:
        body = body.replace(CSRF_PLACEHOLDER, get_token(request))
    return mark_safe(body)  # noqa: S308 - our template's output, kept as rendered


def _cache_failed(exc: Exception) -> None:
    global _warned
    if not _warned:
        _warned = True
        log.warning("page cache not answering (%s: %s): pages are rendered each time until it does",
                    type(exc).__name__, exc)
