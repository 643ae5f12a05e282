"""The lifecycle of a run: one for collections and imports.

A run is queued (a row, then a task sent once the row is committed), started
(under the target's lock), and finished with a status, an error a DBA can
read and the notes of its source. A run whose process died is failed by
:func:`runs_reap` with a message, and its target made due again, so no run
stays "queued" or "running" for ever.
"""

from __future__ import annotations

import datetime as dt
import functools
import logging
import zlib
from collections.abc import Iterator
from contextlib import contextmanager

from django.db import connection, transaction
from django.utils import timezone

from apps.core.config import get_config
from apps.core.heartbeat import queue_heartbeat_ok
from apps.snapshots.models import CollectionRun
from apps.snapshots.signals import run_ended
from apps.targets.models import Target

logger = logging.getLogger(__name__)

# Advisory-lock namespace so our keys never collide with another application's (public: a test holds a
# target's lock from a session of its own, as another worker would).
COLLECT_LOCK_NAMESPACE = zlib.crc32(b"tierscope.collect") & 0x7FFFFFFF

Status = CollectionRun.Status
#: A run in one of these states is over: a task that finds it so (redelivered late) does nothing.
ENDED = (Status.SUCCEEDED, Status.FAILED, Status.SKIPPED)


class CollectionBusy(Exception):
    """Another run of the same target holds the lock."""


class RunEnded(Exception):
    """The run was ended meanwhile (reaped, or finished by an earlier delivery of its task), or it or its
    target was deleted: a late task has nothing to do."""


class BrokerUnavailable(Exception):
    """The task could not be sent: the run was failed with a message saying so."""


@contextmanager
def target_lock(target_id: int) -> Iterator[None]:
    """One run per target at a time, across workers, `manage.py collect` and imports.

    A session-level PostgreSQL advisory lock: it is released when the session
    ends, so a killed worker never leaves it behind (and :func:`runs_reap`
    reads a free lock as "nobody is running this target").
    """
    if not _lock_try(target_id):
        raise CollectionBusy
    try:
        yield
    finally:
        _lock_release(target_id)


def _lock_try(target_id: int) -> bool:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_lock(%s, %s)", [COLLECT_LOCK_NAMESPACE, target_id])
        return bool(cursor.fetchone()[0])


def _lock_release(target_id: int) -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_unlock(%s, %s)", [COLLECT_LOCK_NAMESPACE, target_id])


def run_enqueue(*, target: Target, trigger: str) -> CollectionRun:
    """Record a queued run and send its task once the row is committed.

    When the broker does not answer, the run is failed with a message and
    :class:`BrokerUnavailable` is raised from the commit (at once: the send is
    not retried), so no run is left "queued" with no task behind it.
    """
    run = CollectionRun.objects.create(target=target, trigger=trigger, queued_at=timezone.now(),
                                       queue=target.collect_queue)
    transaction.on_commit(functools.partial(_run_send, run_id=run.id, target_id=target.id))
    return run


def _run_send(*, run_id: int, target_id: int) -> None:
    from kombu.exceptions import OperationalError as BrokerError

    from apps.snapshots.tasks import snapshot_collect as snapshot_collect_task

    try:
        result = snapshot_collect_task.apply_async((target_id, run_id), retry=False)
    except BrokerError as exc:
        message = (f"Not queued: the task broker did not answer ({exc}). Nothing was collected; "
                   "the target is collected again once Redis is back.")
        logger.error("run %s of target %s: %s", run_id, target_id, message)
        CollectionRun.objects.filter(pk=run_id, status=Status.QUEUED).update(
            status=Status.FAILED, finished_at=timezone.now(), error=message)
        raise BrokerUnavailable(message) from exc
    CollectionRun.objects.filter(pk=run_id).update(task_id=result.id or "")


def run_start(*, target: Target, run_id: int | None, trigger: str) -> CollectionRun:
    """Mark a run running (creating it when the caller had none queued).

    Raises :class:`RunEnded` when the run was ended or deleted meanwhile, and fails a run
    whose task was delivered more often than any healthy run needs (a task
    that kills its worker must not loop for ever).
    """
    now = timezone.now()
    if run_id is None:
        run = CollectionRun.objects.create(target=target, trigger=trigger, queued_at=now)
    else:
        run = CollectionRun.objects.filter(pk=run_id).first()
        if run is None:
            raise RunEnded(f"run {run_id} of {target.name} no longer exists (deleted)")
        if run.status in ENDED:
            raise RunEnded(f"run {run.id} of {target.name} already ended ({run.status})")
    # Still "running": the delivery before this one died mid-run (a killed worker gives its message back).
    run.redelivered = run.status == Status.RUNNING
    run.status = Status.RUNNING
    run.started_at = now
    run.attempts += 1
    run.worker = _worker_hostname()
    run.save(update_fields=["status", "started_at", "attempts", "worker"])
    deliveries = get_config()["COLLECT_MAX_RETRIES"] + get_config()["RUN_MAX_REDELIVERIES"] + 1
    if run.attempts > deliveries:
        run_finish(run, status=Status.FAILED,
                   error=f"Given up after {run.attempts - 1} attempts: the worker running it stopped each time "
                         "(see the worker's log); the target is collected again at its next interval.")
        raise RunEnded(f"run {run.id} of {target.name} was attempted {run.attempts - 1} times")
    return run


def _worker_hostname() -> str:
    """The node name of the Celery worker running this (``name@host``), "" outside a worker (a command)."""
    from celery import current_task

    request = getattr(current_task, "request", None)
    return (getattr(request, "hostname", None) or "")[:200] if request is not None else ""


def run_finish(run: CollectionRun, *, status: str, error: str = "", notes: str = "") -> None:
    run.status = status
    run.finished_at = timezone.now()
    run.error = error
    run.notes = notes
    run.save(update_fields=["status", "finished_at", "error", "notes", "snapshots_added", "rows_added"])
    _announce_end(target_id=run.target_id, run_id=run.id, status=status)


def _announce_end(*, target_id: int, run_id: int, status: str) -> None:
    """apps.snapshots.signals.run_ended once the run's end is committed (a retry's "queued" is no end); a
    listener that fails is logged and never fails the run."""
    def send() -> None:
        for receiver, outcome in run_ended.send_robust(sender=CollectionRun, target_id=target_id, run_id=run_id,
                                                       status=status):
            if isinstance(outcome, Exception):
                logger.error("after run %s of target %s ended, %s failed: %s", run_id, target_id, receiver, outcome)

    if status in ENDED:
        transaction.on_commit(send)


def runs_fail_orphans(*, target: Target, current: CollectionRun) -> None:
    """Fail the target's other "running" runs: the caller holds the target's lock, so their process died."""
    CollectionRun.objects.filter(target=target, status=Status.RUNNING).exclude(pk=current.pk).update(
        status=Status.FAILED, finished_at=timezone.now(),
        error="The worker running this collection stopped before it finished; nothing partial was kept.",
    )


def runs_reap(*, now: dt.datetime) -> list[int]:
    """Fail the runs left "running" or "queued" past their deadline, with a message; their targets become due.

    - running, and nobody holds the target's lock (the session that ran it is
      gone: a killed worker), once ``RUN_START_GRACE_S`` has passed since it
      started (the lock is taken just after the run is marked running);
    - running for longer than ``RUN_DEADLINE_S`` (beyond the task's hard time
      limit: its worker is stuck or gone);
    - queued for longer than ``RUN_QUEUED_DEADLINE_S`` (its message was lost:
      a broker without persistence that restarted).

    Returns the ids of the runs failed.
    """
    config = get_config()
    reaped = []
    running = CollectionRun.objects.filter(
        status=Status.RUNNING, started_at__lt=now - dt.timedelta(seconds=config["RUN_START_GRACE_S"]))
    for run in running.select_related("target"):
        if run.started_at < now - dt.timedelta(seconds=config["RUN_DEADLINE_S"]):
            reason = (f"Stopped: still running after {config['RUN_DEADLINE_S'] // 60} minutes, past every time "
                      "limit; its worker is stuck or gone.")
        elif _lock_try(run.target_id):
            _lock_release(run.target_id)
            reason = "The worker running this collection stopped before it finished; nothing partial was kept."
        else:
            continue
        if _reap(run, now=now, reason=reason, status=Status.RUNNING):
            reaped.append(run.id)
    queued = CollectionRun.objects.filter(
        status=Status.QUEUED, queued_at__lt=now - dt.timedelta(seconds=config["RUN_QUEUED_DEADLINE_S"]))
    for run in queued.select_related("target"):
        reason = (f"Never started: queued for more than {config['RUN_QUEUED_DEADLINE_S'] // 60} minutes "
                  f"{_queued_why(run.queue)}")
        if _reap(run, now=now, reason=reason, status=Status.QUEUED):
            reaped.append(run.id)
    return reaped


def _queued_why(queue: str) -> str:
    if queue and not queue_heartbeat_ok(queue):
        return f"(no worker consumes queue {queue}: start one with celery -A config worker -Q {queue})."
    return "(its task was lost, or no worker is running)."


def _reap(run: CollectionRun, *, now: dt.datetime, reason: str, status: str) -> bool:
    with transaction.atomic():
        # Conditional: a run that moved on meanwhile is left alone.
        changed = CollectionRun.objects.filter(pk=run.pk, status=status).update(
            status=Status.FAILED, finished_at=now, error=reason)
        if changed and run.target.is_live:
            Target.objects.filter(pk=run.target_id).update(next_collect_at=now)
    if changed:
        logger.warning("run %s of target %s failed by the reaper: %s", run.pk, run.target.name, reason)
        _announce_end(target_id=run.target_id, run_id=run.pk, status=Status.FAILED)
    return bool(changed)
