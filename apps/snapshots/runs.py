"""The lifecycle of a run: one for collections and imports.

A run is queued (a row, then a task sent once the row is committed), then
:func:`run_lifecycle` takes the target's lock and only then starts it, and
it is ended, still under the lock, with a status, an error a DBA can read
and the notes of its source. A run that finds the lock taken is ended as
skipped, whatever it is (a collection or an import) and whatever holds the
lock. A run whose process died is failed by :func:`runs_reap` with a message,
and its target made due again, so no run stays "queued" or "running" for ever.
"""

from __future__ import annotations

import datetime as dt
import functools
import logging
from collections.abc import Iterator
from contextlib import contextmanager

from celery import current_task
from django.db import transaction
from django.utils import timezone
from kombu.exceptions import OperationalError as BrokerError

from apps.core.config import get_config
from apps.core.heartbeat import queue_heartbeat_ok
from apps.core.locks import LockSpace, lock_release, lock_try
from apps.snapshots.models import CollectionRun
from apps.snapshots.signals import run_ended, run_succeeded
from apps.targets.models import Target

logger = logging.getLogger(__name__)

Status = CollectionRun.Status
#: A run in one of these states is over: a task that finds it so (redelivered late) does nothing.
ENDED = (Status.SUCCEEDED, Status.FAILED, Status.SKIPPED)


#: The error of a run that found its target's lock taken (a collection's and an import's alike).
BUSY_ERROR = "Another collection or import of this target was running; this one did nothing."


class CollectionBusy(Exception):
    """Another run of the same target holds its lock. ``run`` was ended as skipped (BUSY_ERROR), unless it is
    ``redelivered``: then its own dead attempt's session holds the lock a moment more, and the caller retries."""

    def __init__(self, run: CollectionRun, *, redelivered: bool) -> None:
        super().__init__(run.error or BUSY_ERROR)
        self.run, self.redelivered = run, redelivered


class RunEnded(Exception):
    """The run was ended meanwhile (reaped, or finished by an earlier delivery of its task), or it or its
    target was deleted: a late task has nothing to do."""


class BrokerUnavailable(Exception):
    """The task could not be sent: the run was failed with a message saying so."""


@contextmanager
def run_lifecycle(*, target: Target, run_id: int | None, trigger: str) -> Iterator[CollectionRun]:
    """One run of ``target``, a collection or an import: take the target's lock, then start the run (created
    when ``run_id`` is None) and yield it; the caller ends it (:func:`run_finish`, :func:`run_succeed`) inside.

    One run per target at a time, across workers, `manage.py collect` and imports: a session-level
    PostgreSQL advisory lock (LockSpace.TARGET_RUN), never waited for. It is released when the session
    ends, so a killed worker never leaves it behind, and a run is marked running only while its lock is
    held (:func:`runs_reap` reads a free lock as "nobody is running this target").

    Raises :class:`CollectionBusy` when the lock is taken, :class:`RunEnded` when the run was ended or
    deleted meanwhile, or was delivered more often than any healthy run needs.
    """
    queued = _run_queued(target=target, run_id=run_id)
    if not lock_try(LockSpace.TARGET_RUN, target.id):
        raise _busy(target=target, run=queued, trigger=trigger)
    try:
        run = run_start(target=target, run_id=run_id, trigger=trigger)
        runs_fail_orphans(target=target, current=run)
        yield run
    finally:
        lock_release(LockSpace.TARGET_RUN, target.id)


def _run_queued(*, target: Target, run_id: int | None) -> CollectionRun | None:
    """The queued run (None for a run not recorded yet); RunEnded when it is gone or over."""
    if run_id is None:
        return None
    run = CollectionRun.objects.filter(pk=run_id).first()
    if run is None:
        raise RunEnded(f"run {run_id} of {target.name} no longer exists (deleted)")
    if run.status in ENDED:
        raise RunEnded(f"run {run.id} of {target.name} already ended ({run.status})")
    return run


def _busy(*, target: Target, run: CollectionRun | None, trigger: str) -> CollectionBusy:
    """The lock is taken: the attempt is recorded, and the run ended as skipped unless it is a redelivery
    whose own dead attempt holds the lock (still "running": a killed worker gives its message back)."""
    now = timezone.now()
    if run is None:
        run = CollectionRun.objects.create(target=target, trigger=trigger, queued_at=now)
    redelivered = run.status == Status.RUNNING
    _run_attempted(run, now=now)
    if not redelivered:
        run_finish(run, status=Status.SKIPPED, error=BUSY_ERROR)
    return CollectionBusy(run, redelivered=redelivered)


def _run_attempted(run: CollectionRun, *, now: dt.datetime, fields: list[str] | None = None) -> None:
    run.started_at = now
    run.attempts += 1
    run.worker = _worker_hostname()
    run.save(update_fields=["started_at", "attempts", "worker", *(fields or [])])


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
    from apps.snapshots.tasks import snapshot_collect as snapshot_collect_task  # cycle: apps.snapshots.tasks

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
    """Mark a run running (creating it when the caller had none queued); :func:`run_lifecycle` calls it once
    it holds the target's lock.

    Raises :class:`RunEnded` when the run was ended or deleted meanwhile, and fails a run
    whose task was delivered more often than any healthy run needs (a task
    that kills its worker must not loop for ever).
    """
    now = timezone.now()
    run = _run_queued(target=target, run_id=run_id)  # read again: it may have ended while the lock was taken
    if run is None:
        run = CollectionRun.objects.create(target=target, trigger=trigger, queued_at=now)
    run.status = Status.RUNNING
    _run_attempted(run, now=now, fields=["status"])
    deliveries = get_config()["COLLECT_MAX_RETRIES"] + get_config()["RUN_MAX_REDELIVERIES"] + 1
    if run.attempts > deliveries:
        run_finish(run, status=Status.FAILED,
                   error=f"Given up after {run.attempts - 1} attempts: the worker running it stopped each time "
                         "(see the worker's log); the target is collected again at its next interval.")
        raise RunEnded(f"run {run.id} of {target.name} was attempted {run.attempts - 1} times")
    return run


def _worker_hostname() -> str:
    """The node name of the Celery worker running this (``name@host``), "" outside a worker (a command)."""
    request = getattr(current_task, "request", None)
    return (getattr(request, "hostname", None) or "")[:200] if request is not None else ""


def run_finish(run: CollectionRun, *, status: str, error: str = "", notes: str = "") -> None:
    run.status = status
    run.finished_at = timezone.now()
    run.error = error
    run.notes = notes
    run.save(update_fields=["status", "finished_at", "error", "notes", "snapshots_added", "rows_added"])
    _announce_end(target_id=run.target_id, run_id=run.id, status=status)


def run_succeed(run: CollectionRun, *, notes: str = "") -> None:
    """End the run as succeeded and tell the apps after this one (the recommendations) once its rows are
    committed (:data:`apps.snapshots.signals.run_succeeded`); a listener that fails is logged, never fails
    the run (send_robust)."""
    run_finish(run, status=Status.SUCCEEDED, notes=notes)

    def send() -> None:
        for receiver, outcome in run_succeeded.send_robust(sender=CollectionRun, target_id=run.target_id,
                                                           run_id=run.id):
            if isinstance(outcome, Exception):
                logger.error("after run %s of target %s, %s failed: %s", run.id, run.target_id,
                             getattr(receiver, "__name__", receiver), outcome)

    transaction.on_commit(send)


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
      started (a run is marked running only once its lock is taken, and
      ended before it is released: the grace is a margin only);
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
        if run.started_at is not None and run.started_at < now - dt.timedelta(seconds=config["RUN_DEADLINE_S"]):
            reason = (f"Stopped: still running after {config['RUN_DEADLINE_S'] // 60} minutes, past every time "
                      "limit; its worker is stuck or gone.")
        elif lock_try(LockSpace.TARGET_RUN, run.target_id):
            lock_release(LockSpace.TARGET_RUN, run.target_id)
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
