"""Reads of a target's snapshots."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.db import connection
from django.db.models import Count, Max, Min, Subquery

from apps.core.time import day_bounds
from apps.snapshots import sql as pg
from apps.snapshots.models import Segment, Snapshot, TablespaceSpace
from apps.targets.rows import TablespaceSpace as TablespaceSpaceRow


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


#: How a window's statistic is named in a label.
_STATISTIC_WORDS = {"p95": "P95", "avg": "mean", "max": "max"}


def span_words(seconds: float) -> str:
    """A time span in a label's words, rounded to what a DBA reads at a glance.

    >>> span_words(166.2), span_words(1800), span_words(3600), span_words(79267), span_words(86400 * 5.5)
    ('2.8 min', '30 min', '1 h', '22 h', '5.5 days')
    """
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 3600:
        minutes = seconds / 60
        return f"{round(minutes, 1):g} min" if minutes < 10 else f"{minutes:.0f} min"
    if seconds < 48 * 3600:
        hours = seconds / 3600
        return f"{round(hours, 1):g} h" if hours < 10 else f"{hours:.0f} h"
    days = round(seconds / 86400, 1)
    return f"{days:g} days"


@dataclass(frozen=True)
class WindowCoverage:
    """What a window's figures actually cover: its snapshot intervals (the RAC instances of one snapshot are
    one interval), from the first one's begin to the last one's end. A window is named by its days
    (WINDOW_DAYS), but a single imported report holds one interval of its own length."""

    statistic: str
    intervals: int
    begin_at: dt.datetime | None = None
    end_at: dt.datetime | None = None
    interval_s: float | None = None  # the median interval

    @property
    def span_s(self) -> float | None:
        return (self.end_at - self.begin_at).total_seconds() if self.begin_at and self.end_at else None

    @property
    def words(self) -> str:
        """The span as a label says it: "one 22 h interval", "P95 over 6 days", "nothing measured".

        >>> utc = dt.timezone.utc
        >>> begin, end = dt.datetime(2023, 12, 23, 6, tzinfo=utc), dt.datetime(2023, 12, 24, 4, tzinfo=utc)
        >>> WindowCoverage("p95", 1, begin, end, 79200.0).words, WindowCoverage("p95", 22, begin, end, 3600.0).words
        ('one 22 h interval', 'P95 over 22 h')
        >>> WindowCoverage("p95", 0).words
        'nothing measured'
        """
        if not self.intervals or self.span_s is None:
            return "nothing measured"
        if self.intervals == 1:
            return f"one {span_words(self.span_s)} interval"
        return f"{_STATISTIC_WORDS.get(self.statistic, self.statistic)} over {span_words(self.span_s)}"

    @property
    def detail(self) -> str:
        """The whole of it, for a title or the page's facts: statistic, intervals, first begin and last end.

        >>> utc = dt.timezone.utc
        >>> WindowCoverage("p95", 144, dt.datetime(2026, 11, 18, tzinfo=utc), dt.datetime(2026, 11, 24, tzinfo=utc), 3600.0).detail
        'P95 of 144 snapshot intervals of 1 h, 2026-11-18 00:00 to 2026-11-24 00:00 UTC'
        """
        if not self.intervals or self.begin_at is None or self.end_at is None:
            return "no snapshot in the window"
        when = f"{self.begin_at:%Y-%m-%d %H:%M} to {self.end_at:%Y-%m-%d %H:%M} UTC"
        if self.intervals == 1:
            return f"one snapshot interval of {span_words(self.span_s or 0)}, {when}"
        length = f" of {span_words(self.interval_s)}" if self.interval_s else ""
        return (f"{_STATISTIC_WORDS.get(self.statistic, self.statistic)} of {self.intervals} snapshot "
                f"intervals{length}, {when}")


def window_coverage(*, target_id: int, first_day: dt.date, last_day: dt.date, statistic: str) -> WindowCoverage:
    """What the window of ``first_day`` to ``last_day`` (whole UTC days) holds (see :class:`WindowCoverage`)."""
    start, stop = day_bounds(first_day, last_day)
    with connection.cursor() as cursor:
        cursor.execute(pg.COVERAGE, {"target": target_id, "start": start, "stop": stop})
        count, begin_at, end_at, median_s = cursor.fetchone()
    return WindowCoverage(statistic, int(count), begin_at, end_at, None if median_s is None else float(median_s))


@dataclass(frozen=True)
class IncompleteInterval:
    """An interval of a RAC database whose instances are not all stored: its figures are lower bounds."""

    snap_id: int
    end_at: dt.datetime
    instances_stored: tuple[int, ...]
    instances_expected: int


def incomplete_intervals(*, target_id: int, start: dt.datetime | None = None, stop: dt.datetime | None = None,
                         snap_ids: list[int] | None = None, limit: int | None = 5) -> list[IncompleteInterval]:
    """The latest intervals of the target's current database that have some of their RAC instances only
    (instance reports stating "Number of Instances", without the others or a global report): those ending
    in [``start``, ``stop``), of ``snap_ids``, at most ``limit`` (None: every one), when given."""
    with connection.cursor() as cursor:
        cursor.execute(pg.INCOMPLETE, {"target": target_id, "start": start, "stop": stop, "snap_ids": snap_ids,
                                         "limit": limit})
        return [IncompleteInterval(int(snap), end_at, tuple(stored), int(expected))
                for snap, end_at, stored, expected in cursor.fetchall()]


def tablespace_space_latest(*, target_id: int) -> dict[str, TablespaceSpaceRow]:
    """The room of each tablespace of a target as its latest collection that gave any found it, by name
    ({} when no source gave any: AWR reports, older extracts). A collection lists every permanent
    tablespace, so one dropped since is not in it."""
    rows = TablespaceSpace.objects.filter(target_id=target_id)
    newest = rows.order_by("-collected_at").values("collected_at")[:1]  # one query: the newest as a subquery
    return {
        row.tablespace_name: TablespaceSpaceRow(
            tablespace_name=row.tablespace_name, size_bytes=row.size_bytes, used_bytes=row.used_bytes,
            max_size_bytes=row.max_size_bytes, block_size_bytes=row.block_size_bytes,
            autoextensible=row.autoextensible)
        for row in rows.filter(collected_at=Subquery(newest)).order_by("tablespace_name")
    }


def segment_list(*, target_id: int):
    """A target's segments by id (the API's list; the segment page reads one)."""
    return Segment.objects.filter(target_id=target_id).order_by("id")
