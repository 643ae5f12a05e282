"""Celery tasks of the targets app: thin shells over services."""

from __future__ import annotations

import logging

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded
from django.utils import timezone

from apps.core.config import CONFIG_DEFAULTS
from apps.targets.deletion import target_purge as purge
from apps.targets.deletion import target_purges_resume as purges_resume
from apps.targets.queues import queue_of_check
from apps.targets.services import TargetCheckGone, target_check_fail
from apps.targets.services import target_check as check
from apps.targets.services import target_checks_reap as reap

# The check bounds itself (TARGET_CHECK_TIMEOUT_S); these limits only catch what escapes it.
_CHECK_LIMIT_S = int(CONFIG_DEFAULTS["TARGET_CHECK_TIMEOUT_S"])

logger = logging.getLogger(__name__)


# Sent to the target's group's queue (apps.core.routing): it tests the path its collections take.
# queue_of (apps.core.routing) is a task option Celery keeps as a task attribute; celery-types takes such
# options only beside base=: the ignore is for that stub.
@shared_task(soft_time_limit=_CHECK_LIMIT_S + 30, time_limit=_CHECK_LIMIT_S + 60,  # type: ignore[call-overload]
             queue_of=staticmethod(queue_of_check))
def target_check(check_id: int) -> str:
    # Idempotent: the service claims only a queued check, so a redelivery changes nothing.
    try:
        return check(check_id=check_id).status
    except TargetCheckGone as exc:
        logger.info("connection check task %s: nothing to do: %s", check_id, exc)
        return f"skipped: {exc}"
    except SoftTimeLimitExceeded:
        target_check_fail(check_id=check_id, error=f"The check passed the worker's limit of {_CHECK_LIMIT_S + 30} s.")
        return "failed"


@shared_task
def target_checks_reap() -> int:
    # Idempotent: fails each stuck check once (conditional UPDATE).
    return reap(now=timezone.now())


# A worker that dies mid-purge: the task is delivered again (acks_late), and beat's target_purges_resume sends it
# again after a while in any case.
@shared_task(acks_late=True, reject_on_worker_lost=True)
def target_purge(target_id: int) -> dict[str, int]:
    # Idempotent: a batch a transaction, each one goes on from what is left; a target gone is nothing to do.
    return purge(target_id=target_id)


@shared_task
def target_purges_resume() -> list[int]:
    return purges_resume(now=timezone.now())
