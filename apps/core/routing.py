"""Celery routing: the tasks that reach or follow one target go to its group's queue (Target.collect_queue).

Routed to the target's queue:

* ``snapshot_collect`` (target id): it connects to the target, so it runs where that group's network is;
* ``target_check`` (check id): "test connection" must test the path the collections will take;
* ``refresh_run`` (refresh id): the recommendations that follow a collection are rebuilt by the group's
  worker, so a group's machines carry all the work its targets make and the default worker does not grow
  with the fleet; a group whose worker is down collects nothing new, so its refreshes have nothing to wait for.

Everything else (the beat fan-out, the reapers, prunes, window bases a page asks for) stays on the default
queue: the reapers must run when a group's worker is down, and pages must not wait on a group's worker.

The queue is read at send time, so changing a target's queue applies to its next task.
"""

from __future__ import annotations

import logging
from typing import Any

logger = logging.getLogger(__name__)


def _queue_of_target(target_id: object) -> str:
    from apps.targets.models import Target

    return Target.objects.filter(pk=target_id).values_list("collect_queue", flat=True).first() or ""


def _queue_of_check(check_id: object) -> str:
    from apps.targets.models import TargetCheck

    return TargetCheck.objects.filter(pk=check_id).values_list("target__collect_queue", flat=True).first() or ""


def _queue_of_refresh(refresh_id: object) -> str:
    from apps.tiering.models import Refresh

    return Refresh.objects.filter(pk=refresh_id).values_list("target__collect_queue", flat=True).first() or ""


_BY_FIRST_ARG = {
    "apps.snapshots.tasks.snapshot_collect": _queue_of_target,
    "apps.targets.tasks.target_check": _queue_of_check,
    "apps.tiering.tasks.refresh_run": _queue_of_refresh,
}


def task_queue(name: str, args: Any, kwargs: Any) -> str:
    """The queue a task about one target goes to ("" when it goes to the default queue)."""
    lookup = _BY_FIRST_ARG.get(name)
    if lookup is None:
        return ""
    first = args[0] if args else next(iter((kwargs or {}).values()), None)
    if first is None:
        return ""
    return lookup(first)


def route_task(name: str, args: Any, kwargs: Any, options: Any, task: Any = None, **kw: Any) -> dict[str, str] | None:
    """CELERY_TASK_ROUTES entry: {"queue": the target's queue} or None (Celery's default queue)."""
    queue = task_queue(name, args, kwargs)
    return {"queue": queue} if queue else None
