"""Celery tasks: thin shells over services; they own only the retry policy."""

from __future__ import annotations

import datetime as dt
import logging

from celery import shared_task
from django.utils import timezone

from apps.core.config import get_config
from apps.snapshots.partitions import PARTITION_DAYS_AHEAD
from apps.snapshots.partitions import partitions_ahead as ahead
from apps.snapshots.runs import RunEnded
from apps.snapshots.runs import runs_reap as reap
from apps.snapshots.services import CollectRetryable
from apps.snapshots.services import snapshot_collect as collect
from apps.snapshots.services import snapshot_collect_due as collect_due
from apps.snapshots.services import snapshot_prune as prune
from apps.snapshots.windows import window_base_prepare as prepare
from apps.targets.models import Target
from apps.targets.queues import queue_of_target

logger = logging.getLogger(__name__)


# Idempotent by data (natural keys), so acks_late is safe, and a worker killed mid-run gives its message
# back at once (reject_on_worker_lost): the redelivered run adds what is missing; runs.run_start bounds how
# often one run is redelivered.
# Sent to the target's group's queue (apps.core.routing): it connects to the target.
# queue_of (apps.core.routing) is a task option Celery keeps as a task attribute; celery-types takes such
# options only beside base=: the ignore is for that stub.
@shared_task(bind=True, acks_late=True, reject_on_worker_lost=True, max_retries=10,  # type: ignore[call-overload]
             queue_of=staticmethod(queue_of_target))
def snapshot_collect(self, target_id: int, run_id: int | None = None) -> str:
    try:
        run = collect(target_id=target_id, run_id=run_id, trigger="schedule")
    except RunEnded as exc:  # reaped, finished by an earlier delivery, or deleted: nothing to do
        logger.info("collection task of target %s: nothing to do: %s", target_id, exc)
        return f"skipped: {exc}"
    except CollectRetryable as exc:  # transient only: permanent errors are recorded on the run
        backoff = get_config()["COLLECT_RETRY_BACKOFF_S"] * (2 ** self.request.retries)
        raise self.retry(args=(target_id, exc.run_id), exc=exc, countdown=backoff) from exc
    return run.status


@shared_task
def snapshot_collect_due() -> int:
    return collect_due(now=timezone.now())


@shared_task
def runs_reap() -> list[int]:
    # Idempotent: a run is failed once (conditional UPDATE); the rest are left as they are.
    return reap(now=timezone.now())


@shared_task
def snapshot_prune() -> int:
    return prune(now=timezone.now())


@shared_task
def partitions_ahead() -> list[str]:
    # Idempotent: a day that has its partition is left as it is.
    return [day.isoformat() for day in ahead(now=timezone.now(), days_ahead=PARTITION_DAYS_AHEAD)]


@shared_task
def window_base_prepare(target_id: int, last_day: str, days: int, statistic: str,
                        day_ends: bool = False) -> list[str]:
    # Idempotent: a base already current is left as it is.
    if not Target.objects.filter(pk=target_id).exists():
        logger.info("window base of target %s: nothing to do: target %s no longer exists (deleted)",
                    target_id, target_id)
        return []
    built = prepare(target_id=target_id, last_day=dt.date.fromisoformat(last_day), days=days, statistic=statistic,
                    day_ends=day_ends)
    return [f"{first}..{last}" for first, last in built]
