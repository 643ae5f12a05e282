"""A target's run figures, read by /metrics and the alerts: runs by outcome, the last success, failures since."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count, F, OuterRef, Q, QuerySet, Subquery

from apps.snapshots.models import CollectionRun
from apps.targets.models import Target

Status = CollectionRun.Status


@dataclass(frozen=True)
class RunFigures:
    target_id: int
    last_success_at: dt.datetime | None  # when the last successful run finished; None: never succeeded
    consecutive_failures: int  # failed runs queued after the last successful one (every failed run if none)
    runs_by_status: dict[str, int] = field(default_factory=dict)  # every status, 0 included


def run_figures(*, target_id: int | None = None) -> dict[int, RunFigures]:
    """Per target (every target, or the one given): its run figures, in three grouped queries.

    The last success is found per target through the run_target_idx index (target, -queued_at).
    """
    targets = Target.objects.all() if target_id is None else Target.objects.filter(pk=target_id)

    def last_ok(outer: str) -> QuerySet[CollectionRun, Any]:
        runs = CollectionRun.objects.filter(target=OuterRef(outer), status=Status.SUCCEEDED).order_by("-queued_at")
        return runs.values("queued_at")[:1]

    successes = dict(targets.annotate(
        at=Subquery(CollectionRun.objects.filter(target=OuterRef("pk"), status=Status.SUCCEEDED)
                    .order_by("-queued_at").values("finished_at")[:1])).values_list("pk", "at"))
    failures = dict(
        CollectionRun.objects.filter(target__in=targets, status=Status.FAILED)
        .annotate(last_ok_queued_at=Subquery(last_ok("target_id")))
        .filter(Q(last_ok_queued_at__isnull=True) | Q(queued_at__gt=F("last_ok_queued_at")))
        .values("target_id").annotate(n=Count("id")).order_by().values_list("target_id", "n")
    )
    counts: dict[int, dict[str, int]] = defaultdict(dict)
    for row in CollectionRun.objects.filter(target__in=targets).values("target_id", "status") \
            .annotate(n=Count("id")).order_by():
        counts[row["target_id"]][row["status"]] = row["n"]
    return {
        pk: RunFigures(target_id=pk, last_success_at=at, consecutive_failures=failures.get(pk, 0),
                       runs_by_status={status: counts[pk].get(status, 0) for status in Status.values})
        for pk, at in successes.items()
    }
