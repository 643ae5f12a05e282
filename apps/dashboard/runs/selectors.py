"""What the runs page reads: the collection runs, newest first, each with the refresh queued after it, and the
targets that can be collected now."""

from __future__ import annotations

from django.db.models import Prefetch, QuerySet

from apps.snapshots.models import CollectionRun
from apps.targets.models import Target
from apps.tiering.models import Refresh


def live_targets() -> list[Target]:
    """Enabled targets that can be collected now (not report-only)."""
    return [t for t in Target.objects.enabled() if t.is_live]


def run_queryset() -> QuerySet[CollectionRun]:
    """The runs, newest first, with their target and their refreshes (latest first): /runs/ and the API. Not
    those of a target being deleted (apps.targets.deletion)."""
    return (CollectionRun.objects.filter(target__deleting_since__isnull=True).select_related("target")
            .order_by("-queued_at")
            .prefetch_related(Prefetch("refreshes", queryset=Refresh.objects.order_by("-queued_at"))))


def run_list(*, limit: int = 200) -> list[CollectionRun]:
    """The latest runs, each with ``latest_refresh``: the refresh queued after it (None: none yet)."""
    runs = list(run_queryset()[:limit])
    for run in runs:
        run.latest_refresh = next(iter(run.refreshes.all()), None)
    return runs


def run_get(*, run_id: int) -> CollectionRun:
    """One run with ``latest_refresh`` (as run_list); raises CollectionRun.DoesNotExist."""
    run = CollectionRun.objects.select_related("target").get(pk=run_id)
    run.latest_refresh = Refresh.objects.filter(after_run_id=run.id).order_by("-queued_at").first()
    return run
