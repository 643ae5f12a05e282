"""Whether a target's recommendations are ready, in words for the command line (recommend, the imports).

A run that succeeds queues a refresh (apps.tiering.recommendations.refreshes); until a worker has run it the target has
no recommendations, and ``manage.py recommend`` must say so, and what to run, instead of printing an
empty table.
"""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from apps.targets.models import Target
from apps.tiering.models import Refresh
from apps.tiering.recommendations.selectors import refresh_latest
from apps.tiering.rules.in_words import duration

Status = Refresh.Status


def _when(moment: Any) -> str:
    return f"{moment:%Y-%m-%d %H:%M:%S} UTC, {duration(max(0.0, (timezone.now() - moment).total_seconds()))} ago"


def recommendations_missing(*, target: Any) -> str:
    """Why a target has no current recommendations, and what to run: one paragraph for stderr."""
    now_hint = f"compute them now with `manage.py recommend {target.name} --refresh`"
    refresh = refresh_latest(target_id=target.id)
    if refresh is None:
        return (f"{target.name}: no recommendations: none has been computed for this target yet (nothing collected "
                f"or imported into it, or its refresh was never queued); collect or import first, or {now_hint}.")
    if refresh.status == Status.QUEUED:
        return (f"{target.name}: no recommendations yet: a refresh was queued at {_when(refresh.queued_at)}, and no "
                f"worker has run it yet (is the worker running? see /runs/); they are ready once it has, or "
                f"{now_hint}.")
    if refresh.status == Status.RUNNING:
        return (f"{target.name}: no recommendations yet: a refresh started at {_when(refresh.started_at)} is "
                f"computing them; run this again in a moment, or {now_hint}.")
    if refresh.status == Status.FAILED:
        return (f"{target.name}: no recommendations: the last refresh (queued at {_when(refresh.queued_at)}) failed: "
                f"{refresh.error.rstrip('.')}; {now_hint}.")
    return (f"{target.name}: no recommendations: the last refresh ({_when(refresh.finished_at)}) kept none "
            f"(no tiers in its tier set?); {now_hint}.")


def run_followup(*, target_id: int, run_id: int) -> list[str]:
    """What follows a succeeded run for its recommendations, for the command that made the run."""
    name = Target.objects.get(pk=target_id).name
    refresh = (Refresh.objects.filter(target_id=target_id, after_run_id=run_id).order_by("-queued_at").first()
               or Refresh.objects.filter(target_id=target_id, status__in=(Status.QUEUED, Status.RUNNING))
               .order_by("-queued_at").first())
    now_hint = f"to compute them now: `manage.py recommend {name} --refresh`"
    if refresh is None:
        return [f"recommendations: no refresh queued (nothing new to compute from); {now_hint}."]
    if refresh.status == Status.FAILED:
        return [f"recommendations: not refreshed: {refresh.error.rstrip('.')}; {now_hint}."]
    if refresh.status == Status.SUCCEEDED:
        return [f"recommendations: refreshed ({refresh.recommendations} recommendations); "
                f"`manage.py recommend {name}` prints them."]
    return [f"recommendations: a refresh was queued at {refresh.queued_at:%Y-%m-%d %H:%M:%S} UTC; a worker computes "
            f"them (see /runs/, or `manage.py recommend {name}`, which says whether they are ready); {now_hint}."]


def on_run_followups(sender: Any, *, target_id: int, run_id: int, **kwargs: Any) -> list[str]:
    """apps.snapshots.signals.run_followups: the recommendations' line after a run a command made."""
    return run_followup(target_id=target_id, run_id=run_id)
