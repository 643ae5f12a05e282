"""Celery tasks: thin shells over services."""

from __future__ import annotations

from celery import shared_task


@shared_task
def recommendation_runs_prune(target_id: int) -> int:
    # Idempotent: deletes only runs no page shows, whatever is left of them.
    from apps.tiering.services import recommendation_runs_prune as prune

    return prune(target_id=target_id)
