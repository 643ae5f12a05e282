"""Per-segment activity over a window of whole UTC days, read from the daily rollups.

A window is the ``days`` UTC days ending with ``last_day`` (the day of the
target's latest snapshot). Per segment and day, AWR/demo/report snapshots are
used when the segment has any that day, else the V$ samples (never both: they
measure the same time). Per snapshot, IOPS = (read + write requests) /
interval; the figure of the window is their p95 (percentile_disc: the k-th
largest of n values, k = n - ceil(0.95 n) + 1), mean or max.

Speed: a refresh after every collection must not re-read a week of hourly
statistics (16.8M rows for 100k segments). Each day is rolled up into one
RollupDay (apps.snapshots.activity: per segment, the sums and the TOP_IOPS
largest per-snapshot values; a day still going on also has a part,
RollupHour, that apps.snapshots.rollups.day_rollup merges with it); the
window's complete days are merged once into a WindowBase (rebuilt when a day
it covers changes), so a refresh reads two blobs: the base and the last day. When the window moves on to a new day, its
base was prepared the day before (:func:`window_base_prepare`): whole, or
the days both windows share, to which the day just ended is added. The p95
is exact whenever k <= TOP_IOPS; beyond that (a long window of frequent
snapshots) :func:`raw_window_figures` computes it from the raw statistics,
which is also the reference the rollup path is tested against.

A window holds the snapshots of the target's current database only (the
DBID of its latest snapshot): a database recreated under a new DBID numbers
its snapshots again, and two databases' figures are never summed. The
snapshots of one (kind, dbid, snap_id) are one figure (RAC instances summed).
"""

from __future__ import annotations

import datetime as dt
import itertools
from dataclasses import dataclass

import numpy as np
from django.db import connection, transaction
from django.utils import timezone

from apps.core import sql as core_sql
from apps.core.db import roomy_sorts
from apps.core.locks import LockSpace, lock_xact
from apps.core.pgcopy import execute_binary, fetch_arrays
from apps.core.time import day_bounds, days_of
from apps.snapshots import activity
from apps.snapshots import sql as pg
from apps.snapshots.activity import COUNTERS, Activity
from apps.snapshots.models import TOP_IOPS, WindowBase
from apps.snapshots.rollups import day_rollup, day_versions, rollup_read

STATISTICS = ("p95", "avg", "max")

@dataclass(frozen=True)
class WindowArrays:
    """The segments active in a window, one numpy array per figure, all in the same order.

    ``iops`` is the chosen statistic of per-snapshot IOPS; ``read_iops`` and
    ``write_iops`` split it by the window's read/write request mix. Counters
    are sums over the window; ``covered_s`` the seconds measured;
    ``intervals`` the per-snapshot values; ``from_samples`` says only V$
    samples measured the segment.
    """

    first_day: dt.date
    last_day: dt.date
    statistic: str
    segment_id: np.ndarray
    iops: np.ndarray
    read_iops: np.ndarray
    write_iops: np.ndarray
    read_requests: np.ndarray
    write_requests: np.ndarray
    physical_reads_blocks: np.ndarray
    physical_reads_direct_blocks: np.ndarray
    optimized_physical_reads: np.ndarray
    table_scans: np.ndarray
    db_block_changes: np.ndarray
    logical_reads: np.ndarray
    reads_unmeasured: np.ndarray
    writes_unmeasured: np.ndarray
    read_requests_bound: np.ndarray
    write_requests_bound: np.ndarray
    reads_unbounded: np.ndarray
    writes_unbounded: np.ndarray
    covered_s: np.ndarray
    intervals: np.ndarray
    from_samples: np.ndarray
    #: The statistic needs values of top-N snapshots that did not capture the segment (its p95 rank
    #: falls among them, or its average counts them): ``iops`` is then a lower bound.
    gaps: np.ndarray

    def __len__(self) -> int:
        return int(self.segment_id.size)

    @property
    def unmeasured(self) -> np.ndarray:
        """True where some of the window's read or write requests were not measured (a top-N gap):
        the counters and IOPS are then lower bounds."""
        return (self.reads_unmeasured > 0) | (self.writes_unmeasured > 0) | self.gaps

    @property
    def iops_bound(self) -> np.ndarray:
        """An upper bound on ``iops`` where it is a lower bound (NaN where a gap has no bound; ``iops``
        where all was measured): the per-snapshot IOPS bounds summed, which bounds their largest, and
        so any statistic of them (exact for one snapshot; assumes equal intervals)."""
        upper = (self.read_requests + self.write_requests + self.read_requests_bound + self.write_requests_bound)
        per_interval = np.divide(self.covered_s, np.maximum(self.intervals, 1))
        bound = np.divide(upper, per_interval, out=np.full(upper.size, np.nan), where=per_interval > 0)
        bound = np.where((self.reads_unbounded > 0) | (self.writes_unbounded > 0) | self.gaps, np.nan, bound)
        return np.where(self.unmeasured, bound, self.iops)


def window_days(*, last_day: dt.date, days: int) -> tuple[dt.date, dt.date]:
    """(first day, last day) of a window of ``days`` whole days ending with ``last_day``."""
    if days < 1:
        raise ValueError(f"a window has at least one day, not {days}")
    return last_day - dt.timedelta(days=days - 1), last_day


def p95_rank(n: np.ndarray) -> np.ndarray:
    """k such that the p95 of n values is the k-th largest (percentile_disc(0.95)); 0 for n = 0."""
    n = np.asarray(n, dtype=np.int64)
    return np.where(n > 0, n - (95 * n + 99) // 100 + 1, 0)


def window_figures(*, target_id: int, last_day: dt.date, days: int, statistic: str = "p95",
                   last_day_rollup: Activity | None = None) -> WindowArrays:
    """Every active segment's figures over the window, from the rollups (see the module docstring).

    ``last_day_rollup``: the last day's rollup as the roll-up just merged it, which saves reading it back.
    """
    if statistic not in STATISTICS:
        raise ValueError(f"statistic must be one of {', '.join(STATISTICS)}, not {statistic!r}")
    first_day, last_day = window_days(last_day=last_day, days=days)
    ranks, keep = _ranks_to_keep(target_id, first_day, last_day, days, statistic)
    if ranks > TOP_IOPS:
        return raw_window_figures(target_id=target_id, last_day=last_day, days=days, statistic=statistic)
    base = window_base_ensure(target_id=target_id, first_day=first_day, last_day=last_day - dt.timedelta(days=1),
                              ranks=ranks, keep=keep)
    if last_day_rollup is None:
        last_day_rollup = day_rollup(target_id=target_id, day=last_day)
    last = activity.prefer_snapshots(last_day_rollup)
    return merged_figures(target_id, first_day, last_day, statistic,
                          activity.merge(base, last, keep=ranks, by_source=False))


def merged_figures(target_id: int, first_day: dt.date, last_day: dt.date, statistic: str,
                   merged: Activity) -> WindowArrays:
    """The window's figures from its days' rollups merged per segment (keeping the ranks the statistic needs)."""
    n = merged.intervals
    # Over every top-N snapshot of the window, captured or not (those that did not capture a segment
    # hold an unknown value below their capture); V$ samples measure every segment they cover.
    top_n = _snapshots_in(target_id, first_day, last_day, top_n_only=True)
    n_all = np.where(merged.from_samples, n, np.maximum(n, top_n))
    if statistic == "avg":
        iops = np.divide(merged.iops_sum, n_all, out=np.zeros(n.size), where=n_all > 0)
        gaps = n_all > n
    elif statistic == "max":
        iops = activity.kth_largest(merged.tops, np.where(n > 0, 1, 0))
        gaps = np.zeros(n.size, dtype=bool)
    else:
        rank = p95_rank(n_all)
        iops = activity.kth_largest(merged.tops, rank)
        gaps = rank > n
    return _arrays(first_day, last_day, statistic, {
        "segment_id": merged.segment_id, "from_samples": merged.from_samples,
        **{name: merged.counter(name) for name in COUNTERS}, "covered_s": merged.covered_s,
        "intervals": merged.intervals, "gaps": gaps}, iops)


def _arrays(first_day, last_day, statistic, data: dict[str, np.ndarray], iops: np.ndarray) -> WindowArrays:
    reads = data["read_requests"].astype(np.float64)
    requests = reads + data["write_requests"]
    read_share = np.divide(reads, requests, out=np.zeros(reads.size), where=requests > 0)
    return WindowArrays(
        first_day=first_day, last_day=last_day, statistic=statistic, segment_id=data["segment_id"], iops=iops,
        read_iops=iops * read_share, write_iops=iops * (1 - read_share),
        **{name: data[name] for name in COUNTERS}, covered_s=data["covered_s"], intervals=data["intervals"],
        from_samples=data["from_samples"], gaps=data["gaps"],
    )


def _snapshots_in(target_id: int, first_day: dt.date, last_day: dt.date, *, top_n_only: bool = False) -> int:
    """The window's snapshots of the target's current database: distinct (kind, snap_id), their RAC instances
    counted once; an upper bound of any segment's per-snapshot values. ``top_n_only``: the top-N ones only (AWR,
    imported reports)."""
    return snapshots_between(target_id, *day_bounds(first_day, last_day), top_n_only=top_n_only)


def snapshots_between(target_id: int, start: dt.datetime, end: dt.datetime, *, top_n_only: bool = False) -> int:
    """:func:`_snapshots_in` over the snapshots ending in [start, end)."""
    with connection.cursor() as cursor:
        cursor.execute(pg.SNAPSHOTS_BETWEEN, [target_id, top_n_only, start, end, target_id])
        return int(cursor.fetchone()[0])


# --------------------------------------------------------------------------- the cached base


def window_base_ensure(*, target_id: int, first_day: dt.date, last_day: dt.date, ranks: int = 1,
                       keep: int | None = None, forget_earlier: bool = True) -> Activity:
    """The rollups of [first_day, last_day] merged per segment, keeping at least ``ranks`` top values.

    Read from the target's WindowBase of that range when it is current; else
    built (keeping ``keep`` values, default ``ranks``) and stored: from a
    current base of the same first day that ends earlier (the one
    :func:`window_base_prepare` left for this window) and the days after it,
    or else from every day. Empty for an empty range. Keeping only what a p95
    can need (9 of 144 hourly values a week) keeps the base small.
    ``forget_earlier``: a base stored here replaces those of earlier first
    days (windows gone by); not when preparing one for the next day's window.
    """
    keep = max(keep or ranks, ranks)
    if last_day < first_day:
        return Activity.empty()
    with transaction.atomic():
        lock_xact(LockSpace.WINDOW_BASE, target_id)  # one builder per target at a time
        # The versions are read before the days: a change committed in between makes a base look
        # stale (rebuilt next time), never current while missing that change.
        versions = day_versions(target_id=target_id, last_day=last_day)
        bases = _current_bases(target_id, first_day, last_day, ranks, versions)
        exact = next((base for base in bases if base.last_day == last_day), None)
        if exact:
            return _base_read(exact)
        start = max(bases, key=lambda base: base.last_day, default=None)
        after = start.last_day + dt.timedelta(days=1) if start else first_day
        days = sorted(day for day in versions if after <= day <= last_day)
        merged = activity.merge_all(
            itertools.chain([_base_read(start)] if start else [],
                            (activity.prefer_snapshots(day_rollup(target_id=target_id, day=day)) for day in days)),
            keep=keep, by_source=False)
        if forget_earlier:
            WindowBase.objects.filter(target_id=target_id, first_day__lt=first_day).delete()
        _base_store(target_id, first_day, last_day, _version(versions, first_day, last_day),
                    min(keep, start.ranks) if start else keep, merged)
        return merged


def window_base_prepare(*, target_id: int, last_day: dt.date, days: int, statistic: str = "p95",
                        day_ends: bool = False) -> list[tuple[dt.date, dt.date]]:
    """Build, ahead of time, the bases the next day's window will read; returns the (first, last day)
    of those built (none when they are current already).

    The next day's window starts a day later than the one of ``days`` days
    ending ``last_day``: it shares its complete days, and its base is those
    and ``last_day`` once that day has ended. The shared days are built once,
    so the next day's first refresh merges them with the day just ended (two
    blobs) instead of every day. ``day_ends`` (the next collection falls in
    the next day) also builds that whole base, which stays current unless
    ``last_day`` gets another snapshot: the next day's first refresh then
    reads one blob, as any other refresh. Run after a refresh, off its path
    (a task).
    """
    first_day, last_day = window_days(last_day=last_day, days=days)
    next_first = first_day + dt.timedelta(days=1)
    ranges = [(next_first, last_day - dt.timedelta(days=1))] + ([(next_first, last_day)] if day_ends else [])
    versions = day_versions(target_id=target_id, first_day=next_first, last_day=last_day)
    ranges = [(first, last) for first, last in ranges if first <= last and _version(versions, first, last)]
    if not ranges:  # nothing collected on those days (or the target is gone)
        return []
    ranks, keep = _ranks_to_keep(target_id, first_day, last_day, days, statistic)
    if ranks > TOP_IOPS:  # such a window is read from the raw statistics
        return []
    built = []
    for first, last in ranges:
        if not any(base.last_day == last for base in _current_bases(target_id, first, last, ranks, versions)):
            window_base_ensure(target_id=target_id, first_day=first, last_day=last, ranks=ranks, keep=keep,
                               forget_earlier=False)
            built.append((first, last))
    return built


def _ranks_to_keep(target_id: int, first_day: dt.date, last_day: dt.date, days: int, statistic: str
                   ) -> tuple[int, int]:
    """(ranks the window's statistic needs, ranks a base built now keeps); ranks above TOP_IOPS: the
    window must be read from the raw statistics."""
    if statistic != "p95":
        return 1, 1
    snapshots = _snapshots_in(target_id, first_day, last_day)
    ranks = max(1, int(p95_rank(np.array([snapshots]))[0]))
    # A base built now serves the rest of the day: room for one more day of snapshots.
    keep = min(TOP_IOPS, int(p95_rank(np.array([snapshots + snapshots // max(days - 1, 1)]))[0]))
    return ranks, max(keep, ranks)


def _current_bases(target_id: int, first_day: dt.date, last_day: dt.date, ranks: int,
                   versions: dict[dt.date, int]) -> list[WindowBase]:
    """The target's stored bases from ``first_day`` to ``last_day`` or earlier that are current (built
    from the days as they are now, ``versions``) and keep at least ``ranks`` top values; without data."""
    return [base for base in WindowBase.objects.filter(target_id=target_id, first_day=first_day,
                                                       last_day__lte=last_day, ranks__gte=ranks).defer("data")
            if base.version == _version(versions, base.first_day, base.last_day)]


def _version(versions: dict[dt.date, int], first_day: dt.date, last_day: dt.date) -> int:
    """The highest version of the days of [first_day, last_day] (0: none collected)."""
    return max((version for day, version in versions.items() if first_day <= day <= last_day), default=0)


def _base_read(base: WindowBase) -> Activity:
    return rollup_read(WindowBase, base.pk, rows=base.rows, width=base.width)


def _base_store(target_id: int, first_day: dt.date, last_day: dt.date, version: int, ranks: int,
                merged: Activity) -> None:
    """Store the base of [first_day, last_day] (replacing the one stored for them)."""
    with connection.cursor() as cursor:
        execute_binary(
            cursor.cursor, pg.WINDOW_BASE_STORE,
            [target_id, first_day, last_day, version, ranks, timezone.now(), len(merged), merged.width,
             merged.to_bytes()])


def window_base_drop(*, target_id: int) -> None:
    """Forget a target's WindowBase (the next window rebuilds it)."""
    WindowBase.objects.filter(target_id=target_id).delete()


# --------------------------------------------------------------------------- the reference: raw statistics


def raw_window_figures(*, target_id: int, last_day: dt.date, days: int, statistic: str = "p95") -> WindowArrays:
    """The same figures as :func:`window_figures`, computed from every raw statistic of the window (slow, exact)."""
    first_day, last_day = window_days(last_day=last_day, days=days)
    return raw_figures(target_id, *day_bounds(first_day, last_day), statistic=statistic)


def raw_figures(target_id: int, start: dt.datetime, end: dt.datetime, *, statistic: str = "p95",
                segment_ids: list[int] | None = None) -> WindowArrays:
    """:func:`raw_window_figures` over the snapshots ending in [start, end), of ``segment_ids`` only when given
    (read through the per-segment index: a page's rows, not every segment)."""
    first_day, last_day = days_of(start, end)
    sql = pg.raw_window(statistic, COUNTERS)
    columns = [("segment_id", "int8"), ("from_samples", "bool"), *((name, "int8") for name in COUNTERS),
               ("covered_s", "float8"), ("intervals", "int8"), ("iops_sum", "float8"), ("iops", "float8"),
               ("gaps", "bool")]
    with roomy_sorts(), connection.cursor() as cursor:
        if segment_ids is not None:  # the period's snapshots (estimated as one) hashed, not probed per snapshot
            cursor.execute(core_sql.NESTLOOP_OFF)
        data = fetch_arrays(cursor.cursor, sql, {"target": target_id, "start": start, "end": end, "ids": segment_ids,
                                                 "top_n": snapshots_between(target_id, start, end, top_n_only=True)},
                            columns)
    return _arrays(first_day, last_day, statistic, data, data["iops"])

