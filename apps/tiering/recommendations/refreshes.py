"""The refresh of a target's recommendations as a task of its own, with its own record (:class:`Refresh`).

A run that succeeds (a collection or an import: apps.snapshots.signals.run_succeeded)
queues a refresh once its rows are committed; so does the target page's Recompute
button (:func:`refresh_enqueue` without a run: after a tablespace map or tier
change, for any mode), and ``manage.py recommend TARGET --refresh`` runs one in
the foreground (:func:`refresh_now`). A refresh that fails fails only
itself, is retried a few times, and shows on /runs/; :func:`refreshes_reap`
fails refreshes a dead worker left behind and queues the ones that never
were (the broker was down when the run ended), so recommendations never
silently fall behind the data.
"""

from __future__ import annotations

import datetime as dt
import functools
import logging
from typing import Any

from django.db import DatabaseError, InterfaceError, OperationalError, transaction
from django.db.models import Max, Q
from django.utils import timezone
from kombu.exceptions import OperationalError as BrokerError

from apps.core.config import get_config
from apps.core.db import connection_reset
from apps.core.errors import first_line
from apps.snapshots.models import CollectionRun
from apps.tiering.models import Refresh
from apps.tiering.recommendations.services import recommendation_refresh
from apps.tiering.signals import announce, refresh_succeeded
from apps.tiering.tasks import refresh_run as refresh_run_task

logger = logging.getLogger(__name__)

Status = Refresh.Status


class RefreshRetryable(Exception):
    """A failure with retries left: the task retries the same refresh later."""


class RefreshGone(Exception):
    """The refresh was deleted with its target (before its task ran, or while it ran): nothing to do."""


def on_run_succeeded(sender: Any, *, target_id: int, run_id: int, **kwargs: Any) -> None:
    """apps.snapshots.signals.run_succeeded: queue a refresh of the run's target."""
    refresh_enqueue(target_id=target_id, run_id=run_id)


def refresh_enqueue(*, target_id: int, run_id: int | None = None) -> Refresh:
    """Queue a refresh, unless one is queued and not started yet (it will read everything stored by then)."""
    pending = Refresh.objects.filter(target_id=target_id, status=Status.QUEUED).order_by("queued_at").first()
    if pending is not None:
        return pending
    refresh = Refresh.objects.create(target_id=target_id, after_run_id=run_id, queued_at=timezone.now())
    transaction.on_commit(functools.partial(_refresh_send, refresh_id=refresh.id))
    return refresh


def refresh_now(*, target_id: int) -> Refresh:
    """Recompute a target's recommendations here and now (``manage.py recommend TARGET --refresh``), from the
    snapshots stored, recorded as a refresh like a queued one (it shows on the target page the same way)."""
    refresh = Refresh.objects.create(target_id=target_id, queued_at=timezone.now())
    return refresh_run(refresh_id=refresh.id, retries_left=False)


def _refresh_send(*, refresh_id: int) -> None:
    try:
        refresh_run_task.apply_async((refresh_id,), retry=False)
    except BrokerError as exc:
        message = f"Not queued: the task broker did not answer ({exc}); queued again once it is back."
        logger.error("refresh %s: %s", refresh_id, message)
        Refresh.objects.filter(pk=refresh_id, status=Status.QUEUED).update(
            status=Status.FAILED, finished_at=timezone.now(), error=message)


def refresh_run(*, refresh_id: int, retries_left: bool) -> Refresh:
    """Run one queued refresh. Raises RefreshRetryable when it failed with ``retries_left``, RefreshGone when
    the refresh was deleted with its target."""
    refresh = Refresh.objects.select_related("target").filter(pk=refresh_id).first()
    if refresh is None:
        raise RefreshGone(f"refresh {refresh_id} no longer exists (its target was deleted)")
    if refresh.status in (Status.SUCCEEDED, Status.FAILED):
        return refresh  # reaped, or done by an earlier delivery of its task
    refresh.status, refresh.started_at, refresh.attempts = Status.RUNNING, timezone.now(), refresh.attempts + 1
    refresh.save(update_fields=["status", "started_at", "attempts"])
    try:
        result = recommendation_refresh(target_id=refresh.target_id, now=timezone.now())
    except (OperationalError, InterfaceError) as exc:
        connection_reset()
        return _refresh_failed(refresh, f"PostgreSQL was unreachable: {first_line(exc)}", retry=retries_left)
    except Exception as exc:
        if not Refresh.objects.filter(pk=refresh.pk).exists():  # its target was deleted while it ran
            raise RefreshGone(f"refresh {refresh.pk} no longer exists (its target was deleted)") from exc
        logger.exception("refresh of target %s failed", refresh.target.name)
        return _refresh_failed(refresh, f"Internal error: {type(exc).__name__}: {exc}", retry=retries_left)
    refresh.status, refresh.finished_at = Status.SUCCEEDED, timezone.now()
    refresh.recommendations, refresh.error = result.recommendations, ""
    refresh.save(update_fields=["status", "finished_at", "recommendations", "error"])
    transaction.on_commit(functools.partial(announce, refresh_succeeded, target_id=refresh.target_id,
                                            refresh_id=refresh.id))
    return refresh


def _refresh_failed(refresh: Refresh, error: str, *, retry: bool) -> Refresh:
    refresh.status = Status.QUEUED if retry else Status.FAILED
    refresh.finished_at = None if retry else timezone.now()
    refresh.error = f"{error} (retrying)" if retry else error
    try:
        refresh.save(update_fields=["status", "finished_at", "error"])
    except DatabaseError as exc:  # still unreachable: the retry (or the reaper) records it later
        connection_reset()
        logger.warning("refresh %s: could not record %r: %s", refresh.pk, error, exc)
    if retry:
        raise RefreshRetryable(error)
    return refresh



def refreshes_reap(*, now: dt.datetime) -> dict[str, int]:
    """Fail refreshes left running past their deadline or queued past the queued deadline, and queue a
    refresh for every target whose latest successful run has none after it (its refresh was never sent).

    Each run gets its refresh once (with the task's retries): a refresh that keeps failing is not
    queued again every minute, the target's next run queues the next one.
    """
    config = get_config()
    failed = Refresh.objects.filter(
        status=Status.RUNNING, started_at__lt=now - dt.timedelta(seconds=config["REFRESH_DEADLINE_S"])
    ).update(status=Status.FAILED, finished_at=now,
             error="Stopped: still running past every time limit; its worker is stuck or gone.")
    failed += Refresh.objects.filter(
        status=Status.QUEUED, queued_at__lt=now - dt.timedelta(seconds=config["RUN_QUEUED_DEADLINE_S"])
    ).update(status=Status.FAILED, finished_at=now,
             error="Never started: its task was lost, or no worker is running.")
    queued = 0
    for target_id, run_id in _runs_without_refresh():
        refresh_enqueue(target_id=target_id, run_id=run_id)
        queued += 1
    if failed or queued:
        logger.warning("refreshes reaped: %d failed, %d queued", failed, queued)
    return {"failed": failed, "queued": queued}


def _runs_without_refresh() -> list[tuple[int, int | None]]:
    """(target, run) of each target whose latest succeeded run has no refresh queued after it finished (the run
    None if it was deleted meanwhile: the refresh reads everything stored)."""
    latest = (CollectionRun.objects.filter(status=CollectionRun.Status.SUCCEEDED).values("target_id")
              .annotate(finished=Max("finished_at")).order_by())
    missing = []
    for row in latest:
        refreshed = Refresh.objects.filter(Q(queued_at__gte=row["finished"]) |
                                           Q(status__in=(Status.QUEUED, Status.RUNNING)), target_id=row["target_id"])
        if not refreshed.exists():
            run_id = (CollectionRun.objects.filter(target_id=row["target_id"], finished_at=row["finished"])
                      .values_list("pk", flat=True).first())
            missing.append((row["target_id"], run_id))
    return missing

