"""Reads of a target's snapshots."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.db.models import Count, Max, Min

from apps.snapshots.models import Snapshot


@dataclass(frozen=True)
class Incarnation:
    """One database a target has had (a DBID), as its snapshots show it."""

    dbid: int
    first_end_at: dt.datetime
    last_end_at: dt.datetime
    snapshots: int


def database_incarnations(*, target_id: int) -> list[Incarnation]:
    """The databases of a target's snapshots, first seen first. Windows show only the one of the latest
    snapshot (apps.snapshots.windows); the others' history is kept apart."""
    rows = (Snapshot.objects.filter(target_id=target_id).values("dbid")
            .annotate(first=Min("end_at"), last=Max("end_at"), count=Count("id")).order_by("first", "dbid"))
    return [Incarnation(dbid=row["dbid"], first_end_at=row["first"], last_end_at=row["last"], snapshots=row["count"])
            for row in rows]


def incarnation_current(incarnations: list[Incarnation]) -> Incarnation | None:
    """The database of the latest snapshot (on a tie, the one first seen later: a database recreated)."""
    return max(incarnations, key=lambda incarnation: (incarnation.last_end_at, incarnation.first_end_at),
               default=None)
