"""The Celery queue of a target's group (Target.collect_queue), read when a task about it is sent.

The tasks that reach or follow one target name their lookup (``queue_of``, a task option) and
apps.core.routing sends them to that queue; docs/scaling.md says which tasks and why.
"""

from __future__ import annotations

from typing import Any

from apps.targets.models import Target, TargetCheck


def queue_of_target(target_id: Any, *args: Any, **kwargs: Any) -> str:
    """The queue of the target a task's first argument names ("" = the default queue, also for a deleted one)."""
    return Target.objects.filter(pk=target_id).values_list("collect_queue", flat=True).first() or ""


def queue_of_check(check_id: Any, *args: Any, **kwargs: Any) -> str:
    """The queue of the target whose "test connection" check a task's first argument names."""
    return TargetCheck.objects.filter(pk=check_id).values_list("target__collect_queue", flat=True).first() or ""
