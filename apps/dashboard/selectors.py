from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, OuterRef, Subquery

from apps.snapshots.models import CollectionRun
from apps.targets.models import Target


@dataclass(frozen=True)
class FleetRow:
    target: Target
    last_run: CollectionRun | None
    segments: int


def fleet_overview() -> list[FleetRow]:
    """One row per target: mode, last collection, segments tracked (two queries in all)."""
    last_run_id = CollectionRun.objects.filter(target=OuterRef("pk")).order_by("-queued_at").values("pk")[:1]
    targets = list(Target.objects.annotate(segment_count=Count("segments"), last_run_id=Subquery(last_run_id)))
    runs = CollectionRun.objects.in_bulk([t.last_run_id for t in targets if t.last_run_id])
    return [FleetRow(target=t, last_run=runs.get(t.last_run_id), segments=t.segment_count) for t in targets]
