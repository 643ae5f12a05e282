"""Celery tasks: thin shells over services; they own only the retry policy."""

from __future__ import annotations

import logging

from celery import shared_task
from django.utils import timezone

from apps.core.config import get_config
from apps.targets.models import Target
from apps.tiering.models import Refresh
from apps.tiering.recommendations.export_store import export_render

logger = logging.getLogger(__name__)


def queue_of_refresh(refresh_id: int, *args: object, **kwargs: object) -> str:
    """The queue of the refreshed target's group (apps.core.routing; docs/scaling.md): the refresh that follows
    a collection runs on the group's workers, so they carry all the work their targets make."""
    return Refresh.objects.filter(pk=refresh_id).values_list("target__collect_queue", flat=True).first() or ""


# A refresh recomputes a target's current recommendations from what is stored: idempotent, so acks_late
# and a killed worker's message given back at once are safe. Its limits are its own (a refresh of 100k
# segments takes about a second; minutes mean something is wrong).
# queue_of (apps.core.routing) is a task option Celery keeps as a task attribute; celery-types takes such
# options only beside base=: the ignore is for that stub.
@shared_task(bind=True, acks_late=True, reject_on_worker_lost=True, max_retries=3, soft_time_limit=10 * 60,  # type: ignore[call-overload]
             time_limit=12 * 60, ignore_result=True, queue_of=staticmethod(queue_of_refresh))
def refresh_run(self, refresh_id: int) -> object:
    # cycle: apps.tiering.recommendations.refreshes
    from apps.tiering.recommendations.refreshes import RefreshGone, RefreshRetryable

    # cycle: apps.tiering.recommendations.refreshes
    from apps.tiering.recommendations.refreshes import refresh_run as run

    try:
        return run(refresh_id=refresh_id, retries_left=self.request.retries < self.max_retries).status
    except RefreshGone as exc:
        logger.info("refresh task %s: nothing to do: %s", refresh_id, exc)
        return f"skipped: {exc}"
    except RefreshRetryable as exc:
        # throw=False: the retry is sent and this delivery ends normally, its record saying "retrying"
        # (eagerly, in tests, apply() runs the returned retry at once).
        backoff = get_config()["COLLECT_RETRY_BACKOFF_S"] * (2 ** self.request.retries)
        return self.retry(exc=exc, countdown=backoff, throw=False)


@shared_task
def refreshes_reap() -> dict[str, int]:
    # Idempotent: fails what is past its deadline once, queues at most one refresh per target.
    # cycle: apps.tiering.recommendations.refreshes
    from apps.tiering.recommendations.refreshes import refreshes_reap as reap

    return reap(now=timezone.now())


@shared_task
def recommendation_runs_prune(target_id: int) -> int:
    # Idempotent: deletes only runs no page shows, whatever is left of them.
    # cycle: apps.tiering.recommendations.services
    from apps.tiering.recommendations.services import recommendation_runs_prune as prune

    if not Target.objects.filter(pk=target_id).exists():  # deleted with its runs
        logger.info("prune of target %s: nothing to do: target %s no longer exists (deleted)", target_id, target_id)
        return 0
    return prune(target_id=target_id)


# Idempotent: a run whose stored lines still hold is left as it is; a run deleted since is nothing to do.
@shared_task(acks_late=True, reject_on_worker_lost=True, soft_time_limit=10 * 60, time_limit=12 * 60,
             ignore_result=True)
def export_lines_render(run_id: int) -> int | None:
    render = export_render(run_id=run_id)
    if render is None:
        logger.info("export rendering of run %s: nothing to do: the run no longer exists (pruned)", run_id)
        return None
    return render.rows
