"""One segment's figures over a window of time: what the before and after view compares (apps.tiering.moves.verdicts).

A window holds the snapshots that lie wholly inside it (begin at or after its
start, end at or before its stop), so a move at ``t`` splits the snapshots
cleanly: the before-window [t - B, t) ends with the last snapshot that ended
by ``t``, the after-window [t, t + A) starts with the first that began at it.
AWR, demo, report and extract snapshots are used when the window has any,
else the V$ samples (they measure the same time: never both, as the
recommendations' windows do); the instances of one RAC snapshot are summed.

A figure not measured is None (unknown), never 0: a top-N snapshot (AWR, a
report) that does not list the segment, or lists it without a request
count, leaves its requests unknown, and every figure made from them. A
complete snapshot (demo, V$ samples) that has no row for it measured none.
"""

from __future__ import annotations

import datetime as dt
import math
from dataclasses import dataclass
from typing import NamedTuple

from django.db.models import Sum

from apps.snapshots.models import SegmentMove, SegmentStat, Snapshot, TablespaceIO

_DAY_S = 86_400.0


@dataclass(frozen=True)
class WindowFigures:
    """A segment over one window; None where not measured (``unmeasured`` snapshots say why)."""

    label: str
    start_at: dt.datetime
    stop_at: dt.datetime
    tablespace_name: str
    snapshots: int  # intervals (RAC instances of one snapshot counted once)
    covered_s: float
    unmeasured: int  # intervals whose requests of the segment are not known
    read_requests: int | None
    write_requests: int | None
    optimized_reads: int | None
    iops_p95: float | None
    # The tablespace's measured average read time over the window. Reads the Database Smart Flash Cache
    # served are in it at the flash cache's latency, for every source: a real database's file statistics
    # (AWR Tablespace IO Stats, V$FILESTAT) count them as reads of the file, and the demo times them so
    # too. It is not weighted again by the segment's flash-hit share, which would count those hits twice.
    read_ms: float | None

    @property
    def io_requests_per_s(self) -> float | None:
        if self.read_requests is None or self.write_requests is None or not self.covered_s:
            return None
        return (self.read_requests + self.write_requests) / self.covered_s

    @property
    def read_requests_per_day(self) -> float | None:
        if self.read_requests is None or not self.covered_s:
            return None
        return self.read_requests / self.covered_s * _DAY_S

    @property
    def flash_hit_share(self) -> float | None:
        """Share of the segment's physical read requests the flash cache served (0..1); None: no read."""
        if self.read_requests is None or self.optimized_reads is None or not self.read_requests:
            return None
        return self.optimized_reads / self.read_requests

    @property
    def io_time_s_per_day(self) -> float | None:
        """Read requests per day times the tablespace's measured read time, in seconds."""
        per_day = self.read_requests_per_day
        if per_day is None or self.read_ms is None:
            return None
        return per_day * self.read_ms / 1000.0


def segment_window_figures(*, target_id: int, segment_id: int, tablespace_name: str, start_at: dt.datetime,
                           stop_at: dt.datetime, label: str, snapshot_id: int | None = None) -> WindowFigures:
    """The figures of one segment (in ``tablespace_name`` over the window) over [start_at, stop_at), or over
    one snapshot only (``snapshot_id``: a period of a compare-period report, which may share its interval
    with the other period's, of another instance)."""
    snaps = _window_snapshots(target_id, start_at, stop_at, only=snapshot_id)
    by_id = {snap.id: snap for snap in snaps}
    rows = {
        row.snapshot_id: row
        for row in map(_StatRow._make, SegmentStat.objects.filter(
            segment_id=segment_id, end_at__gt=start_at, end_at__lte=stop_at).values_list(*_StatRow._fields))
        if row.snapshot_id in by_id
    }
    intervals: dict[tuple[int, int], _IntervalSum] = {}  # (dbid, snap_id): RAC instances summed
    reads = writes = optimized = 0
    optimized_known = True
    for snap in snaps:
        entry = intervals.setdefault((snap.dbid, snap.snap_id), _IntervalSum())
        row = rows.get(snap.id)
        # The interval as the source states it where the segment has a row (a report's "Elapsed"), else its times.
        entry.seconds = max(entry.seconds,
                            row.interval_s if row is not None else (snap.end_at - snap.begin_at).total_seconds())
        if row is None and not snap.top_n_only:
            continue  # a complete snapshot without the segment: it did no IO
        if row is None or row.physical_read_requests is None or row.physical_write_requests is None:
            entry.measured = False
            continue
        reads, writes = reads + row.physical_read_requests, writes + row.physical_write_requests
        entry.requests += row.physical_read_requests + row.physical_write_requests
        if row.optimized_physical_reads is None:
            optimized_known = False
        else:
            optimized += row.optimized_physical_reads
    unmeasured = sum(1 for entry in intervals.values() if not entry.measured)
    covered = sum(entry.seconds for entry in intervals.values())
    measured = not unmeasured and bool(intervals)
    return WindowFigures(
        label=label, start_at=start_at, stop_at=stop_at, tablespace_name=tablespace_name,
        snapshots=len(intervals), covered_s=covered, unmeasured=unmeasured,
        read_requests=reads if measured else None, write_requests=writes if measured else None,
        optimized_reads=optimized if measured and optimized_known else None,
        iops_p95=_p95([entry.requests / entry.seconds for entry in intervals.values() if entry.seconds])
        if measured else None,
        read_ms=_tablespace_read_ms(list(by_id), tablespace_name),
    )


def snapshots_in(*, target_id: int, start_at: dt.datetime, stop_at: dt.datetime) -> int:
    """How many snapshot intervals lie wholly in [start_at, stop_at) (RAC instances counted once)."""
    return len({(snap.dbid, snap.snap_id) for snap in _window_snapshots(target_id, start_at, stop_at)})


class Interval(NamedTuple):
    """A target's snapshot as intervals_in counts it."""

    begin_at: dt.datetime
    end_at: dt.datetime
    dbid: int
    snap_id: int
    is_sample: bool  # a V$ sample


def snapshot_intervals(*, target_id: int) -> list[Interval]:
    """Every snapshot of a target, oldest first, in one query (a plan's moves are counted from it)."""
    return [Interval(begin, end, dbid, snap_id, kind == "sample") for begin, end, dbid, snap_id, kind in
            Snapshot.objects.filter(target_id=target_id).order_by("end_at")
            .values_list("begin_at", "end_at", "dbid", "snap_id", "kind")]


def intervals_in(intervals: list[Interval], *, start_at: dt.datetime, stop_at: dt.datetime) -> int:
    """:func:`snapshots_in` over intervals read once (:func:`snapshot_intervals`): the same rule, no query.

    >>> t = dt.datetime(2026, 1, 1, tzinfo=dt.timezone.utc)
    >>> h = dt.timedelta(hours=1)
    >>> rows = [Interval(t + n * h, t + (n + 1) * h, 1, n, False) for n in range(5)]
    >>> intervals_in(rows, start_at=t + h, stop_at=t + 3 * h)
    2
    """
    inside = [row for row in intervals if start_at < row.end_at <= stop_at and row.begin_at >= start_at]
    primary = {(row.dbid, row.snap_id) for row in inside if not row.is_sample}
    return len(primary) if primary else len({(row.dbid, row.snap_id) for row in inside})


def tablespace_read_ms(*, target_id: int, tablespace_name: str, start_at: dt.datetime,
                       stop_at: dt.datetime) -> float | None:
    """A tablespace's measured average read time over the snapshots wholly in [start_at, stop_at)."""
    return _tablespace_read_ms([snap.id for snap in _window_snapshots(target_id, start_at, stop_at)], tablespace_name)


def segment_moves_list(*, segment_id: int) -> list[SegmentMove]:
    """A segment's moves, oldest first."""
    return list(SegmentMove.objects.filter(segment_id=segment_id).order_by("moved_at"))


def compare_periods(*, target_id: int) -> tuple[Snapshot, Snapshot] | None:
    """The two periods of the latest AWR compare-period report imported into a target, in time order: period 1
    is the earlier (a report may print the later one as its 1st; the import stores them by time).

    Such a report is stored as two report snapshots written together (one import: one transaction, the same
    ``created_at``); an instance or global report stores one. None when no import stored two.
    """
    latest = (Snapshot.objects.filter(target_id=target_id, kind="report").order_by("-created_at")
              .values_list("created_at", flat=True).first())
    if latest is None:
        return None
    pair = list(Snapshot.objects.filter(target_id=target_id, kind="report", created_at=latest)
                .order_by("begin_at", "instance_number"))
    return (pair[0], pair[1]) if len(pair) == 2 else None


class _WindowSnapshot(NamedTuple):
    id: int
    dbid: int
    snap_id: int
    begin_at: dt.datetime
    end_at: dt.datetime
    top_n_only: bool
    kind: str


class _StatRow(NamedTuple):
    """A segment's row in one snapshot (snapshots_segmentstat): None where the source did not list the figure."""

    snapshot_id: int
    physical_read_requests: int | None
    physical_write_requests: int | None
    optimized_physical_reads: int | None
    interval_s: float


@dataclass
class _IntervalSum:
    """One snapshot interval of a window, its RAC instances summed."""

    seconds: float = 0.0
    requests: float = 0.0
    measured: bool = True


def _window_snapshots(target_id: int, start_at: dt.datetime, stop_at: dt.datetime,
                      only: int | None = None) -> list[_WindowSnapshot]:
    """The snapshots wholly in the window: AWR, demo, report and extract ones where it has any, else V$ samples."""
    snapshots = Snapshot.objects.filter(target_id=target_id, end_at__gt=start_at, end_at__lte=stop_at,
                                        begin_at__gte=start_at)
    if only is not None:
        snapshots = snapshots.filter(pk=only)
    rows = list(map(_WindowSnapshot._make, snapshots.values_list(*_WindowSnapshot._fields)))
    primary = [row for row in rows if row.kind != "sample"]
    return primary or rows


def _tablespace_read_ms(snapshot_ids: list[int], tablespace_name: str) -> float | None:
    if not snapshot_ids or not tablespace_name:
        return None
    totals = TablespaceIO.objects.filter(snapshot_id__in=snapshot_ids, tablespace_name=tablespace_name,
                                         read_time_ms__isnull=False).aggregate(reads=Sum("read_requests"),
                                                                               time_ms=Sum("read_time_ms"))
    return totals["time_ms"] / totals["reads"] if totals["reads"] else None


def _p95(values: list[float]) -> float | None:
    """The 95th percentile as PostgreSQL's percentile_disc gives it (the first value at or above 95 %).

    >>> _p95([float(n) for n in range(1, 21)])
    19.0
    """
    if not values:
        return None
    ordered = sorted(values)
    return ordered[max(0, math.ceil(0.95 * len(ordered)) - 1)]
