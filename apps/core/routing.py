"""Celery routing: a task that names a queue lookup (the task option ``queue_of``) goes to the queue it returns.

The apps declare it on the tasks that reach or follow one target (its collections, connection checks and
refreshes: apps.targets.queues), so a group of targets is served by workers of its own (docs/scaling.md).
Every other task, and one whose lookup returns "", goes to the default queue: the beat fan-out, the reapers and
the prunes must run when a group's worker is down, and no page waits on a group's worker.
"""

from __future__ import annotations

from typing import Any

from celery import current_app


def task_queue(name: str, args: Any, kwargs: Any, task: Any = None) -> str:
    """The queue of a task about one target, "" for the default queue."""
    if task is None:
        task = current_app.tasks.get(name)
    lookup = getattr(task, "queue_of", None)
    if lookup is None:
        return ""
    return lookup(*(args or ()), **(kwargs or {}))


def route_task(name: str, args: Any, kwargs: Any, options: Any, task: Any = None, **kw: Any) -> dict[str, str] | None:
    """CELERY_TASK_ROUTES entry: {"queue": the target's queue}, or None (Celery's default queue)."""
    queue = task_queue(name, args, kwargs, task)
    return {"queue": queue} if queue else None
