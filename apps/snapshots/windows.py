"""Per-segment activity over a window of whole UTC days, read from the daily rollups.

A window is the ``days`` UTC days ending with ``last_day`` (the day of the
target's latest snapshot). Per segment and day, AWR/demo/report snapshots are
used when the segment has any that day, else the V$ samples (never both: they
measure the same time). Per snapshot, IOPS = (read + write requests) /
interval; the figure of the window is their p95 (percentile_disc: the k-th
largest of n values, k = n - ceil(0.95 n) + 1), mean or max.

Speed: a refresh after every collection must not re-read a week of hourly
statistics (16.8M rows for 100k segments). The window's complete days are
summed once into a WindowBase (rebuilt when a day it covers changes); a
refresh reads that and the last day's rollups: two rows per segment, packed
by the server and read by numpy (apps.core.pgcopy). The rollups keep the TOP_IOPS largest values per
day, so the p95 is exact whenever k <= TOP_IOPS; beyond that (a long window
of frequent snapshots) :func:`raw_window_figures` computes it from the raw
statistics, which is also the reference the rollup path is tested against.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

import numpy as np
from django.db import connection
from django.db.models import Max
from django.utils import timezone

from apps.core.db import roomy_sorts
from apps.core.pgcopy import fetch_arrays
from apps.snapshots.models import TOP_IOPS, RollupDay, WindowBase

STATISTICS = ("p95", "avg", "max")

COUNTERS = ("read_requests", "write_requests", "physical_reads_blocks", "physical_reads_direct_blocks",
            "optimized_physical_reads", "table_scans", "db_block_changes", "logical_reads")

# pg_advisory_xact_lock(namespace, target id): one WindowBase builder per target at a time.
_BASE_LOCK_NAMESPACE = 7_316_002


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
    covered_s: np.ndarray
    intervals: np.ndarray
    from_samples: np.ndarray

    def __len__(self) -> int:
        return int(self.segment_id.size)


def window_days(*, last_day: dt.date, days: int) -> tuple[dt.date, dt.date]:
    """(first day, last day) of a window of ``days`` whole days ending with ``last_day``."""
    if days < 1:
        raise ValueError(f"a window has at least one day, not {days}")
    return last_day - dt.timedelta(days=days - 1), last_day


def p95_rank(n: np.ndarray) -> np.ndarray:
    """k such that the p95 of n values is the k-th largest (percentile_disc(0.95)); 0 for n = 0."""
    n = np.asarray(n, dtype=np.int64)
    return np.where(n > 0, n - (95 * n + 99) // 100 + 1, 0)


def window_figures(*, target_id: int, last_day: dt.date, days: int, statistic: str = "p95") -> WindowArrays:
    """Every active segment's figures over the window, from the rollups (see the module docstring)."""
    if statistic not in STATISTICS:
        raise ValueError(f"statistic must be one of {', '.join(STATISTICS)}, not {statistic!r}")
    first_day, last_day = window_days(last_day=last_day, days=days)
    ranks = keep = 1
    if statistic == "p95":
        snapshots = _snapshots_in(target_id, first_day, last_day)
        ranks = max(1, int(p95_rank(np.array([snapshots]))[0]))
        if ranks > TOP_IOPS:
            return raw_window_figures(target_id=target_id, last_day=last_day, days=days, statistic=statistic)
        # A base built now serves the rest of the day: room for one more day of snapshots.
        keep = min(TOP_IOPS, int(p95_rank(np.array([snapshots + snapshots // max(days - 1, 1)]))[0]))
    base_id = window_base_ensure(target_id=target_id, first_day=first_day, last_day=last_day - dt.timedelta(days=1),
                                 ranks=ranks, keep=max(keep, ranks))
    data, tops = _merged(_last_day_rows(target_id, last_day, ranks), _base_rows(base_id, ranks))
    n = data["intervals"]
    if statistic == "avg":
        iops = np.divide(data["iops_sum"], n, out=np.zeros(n.size), where=n > 0)
    elif statistic == "max":
        iops = np.maximum(tops.max(axis=1, initial=0.0), 0.0)
    else:
        iops = _kth_largest(tops, p95_rank(n))
    return _arrays(first_day, last_day, statistic, data, iops)


def _row_columns(flag: str, ranks: int) -> list[tuple[str, str]]:
    return [("segment_id", "int8"), (flag, "bool"), *((name, "int8") for name in COUNTERS),
            ("covered_s", "float8"), ("intervals", "int8"), ("iops_sum", "float8"),
            *((f"top_{i}", "float8") for i in range(ranks))]


def _row_select(flag: str, ranks: int) -> str:
    tops = ", ".join(f"coalesce(top_iops[{i}], -1)::float8" for i in range(1, ranks + 1))
    return (f"SELECT segment_id::int8, {flag}, {', '.join(f'{c}::int8' for c in COUNTERS)}, covered_s, "
            f"intervals::int8, iops_sum, {tops}")


def _last_day_rows(target_id: int, day: dt.date, ranks: int) -> dict[str, np.ndarray]:
    """The last day's rollups, one row per segment: its snapshots' row, else its samples' row."""
    sql = _row_select("from_samples", ranks) + " FROM snapshots_segmentday WHERE target_id = %s AND day = %s"
    with connection.cursor() as cursor:
        rows = fetch_arrays(cursor.cursor, sql, [target_id, day], _row_columns("from_samples", ranks))
    # Plain scans and a numpy sort: no SQL sort or hash (a third of the time at 100k segments).
    order = np.lexsort((rows["from_samples"], rows["segment_id"]))
    ids = rows["segment_id"][order]
    first = order[np.r_[True, ids[1:] != ids[:-1]]] if ids.size else order
    return {name: values[first] for name, values in rows.items()}


def _base_rows(base_id: int | None, ranks: int) -> dict[str, np.ndarray]:
    sql = _row_select("only_samples", ranks) + " FROM snapshots_windowbaserow WHERE base_id = %s"
    with connection.cursor() as cursor:
        rows = fetch_arrays(cursor.cursor, sql, [base_id or -1], _row_columns("only_samples", ranks))
    rows["from_samples"] = rows.pop("only_samples")
    return rows


def _merged(last: dict[str, np.ndarray], base: dict[str, np.ndarray]) -> tuple[dict[str, np.ndarray], np.ndarray]:
    """Per segment: the sums of both, samples-only when both are, and the top values of both side by side."""
    ids = np.union1d(last["segment_id"], base["segment_id"])
    merged: dict[str, np.ndarray] = {"segment_id": ids, "from_samples": np.ones(ids.size, dtype=bool)}
    for name in (*COUNTERS, "covered_s", "intervals", "iops_sum"):
        merged[name] = np.zeros(ids.size, dtype=last[name].dtype)
    top_names = [name for name in last if name.startswith("top_")]
    tops = np.full((ids.size, 2 * len(top_names)), -1.0)
    for offset, part in enumerate((base, last)):
        at = np.searchsorted(ids, part["segment_id"])
        merged["from_samples"][at] &= part["from_samples"]
        for name in (*COUNTERS, "covered_s", "intervals", "iops_sum"):
            merged[name][at] += part[name]
        for i, name in enumerate(top_names):
            tops[at, offset * len(top_names) + i] = part[name]
    return merged, tops


def _kth_largest(values: np.ndarray, k: np.ndarray) -> np.ndarray:
    """Row-wise k-th largest (1-based) of values padded with -1; 0 where k is 0."""
    if not values.size:
        return np.zeros(0)
    ordered = -np.sort(-values, axis=1)
    picked = ordered[np.arange(values.shape[0]), np.clip(k - 1, 0, values.shape[1] - 1)]
    return np.where(k > 0, np.maximum(picked, 0.0), 0.0)


def _arrays(first_day, last_day, statistic, data: dict[str, np.ndarray], iops: np.ndarray) -> WindowArrays:
    reads = data["read_requests"].astype(np.float64)
    requests = reads + data["write_requests"]
    read_share = np.divide(reads, requests, out=np.zeros(reads.size), where=requests > 0)
    return WindowArrays(
        first_day=first_day, last_day=last_day, statistic=statistic, segment_id=data["segment_id"], iops=iops,
        read_iops=iops * read_share, write_iops=iops * (1 - read_share),
        **{name: data[name] for name in COUNTERS}, covered_s=data["covered_s"], intervals=data["intervals"],
        from_samples=data["from_samples"],
    )


def _snapshots_in(target_id: int, first_day: dt.date, last_day: dt.date) -> int:
    """An upper bound of any segment's per-snapshot values in the window: its distinct (kind, snap_id)."""
    start, end = _day_bounds(first_day, last_day)
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(DISTINCT (kind, snap_id)) FROM snapshots_snapshot "
            "WHERE target_id = %s AND end_at >= %s AND end_at < %s", [target_id, start, end])
        return int(cursor.fetchone()[0])


def _day_bounds(first_day: dt.date, last_day: dt.date) -> tuple[dt.datetime, dt.datetime]:
    start = dt.datetime.combine(first_day, dt.time(), tzinfo=dt.timezone.utc)
    end = dt.datetime.combine(last_day + dt.timedelta(days=1), dt.time(), tzinfo=dt.timezone.utc)
    return start, end


# --------------------------------------------------------------------------- the cached base


_BASE_SQL = """
WITH chosen AS (
  SELECT DISTINCT ON (segment_id, day) * FROM snapshots_segmentday
  WHERE target_id = %(target)s AND day BETWEEN %(first)s AND %(last)s
  ORDER BY segment_id, day, from_samples
), sums AS (
  SELECT segment_id, bool_and(from_samples) AS only_samples, {sums}, sum(covered_s) AS covered_s,
         sum(intervals) AS intervals, sum(iops_sum) AS iops_sum
  FROM chosen GROUP BY segment_id
), tops AS (
  SELECT segment_id, (array_agg(v ORDER BY v DESC))[1:%(top)s] AS top_iops
  FROM chosen, unnest(chosen.top_iops[1:%(top)s]) AS v GROUP BY segment_id
)
INSERT INTO snapshots_windowbaserow (base_id, segment_id, only_samples, {columns}, covered_s, intervals, iops_sum,
                                     top_iops)
SELECT %(base)s, sums.*, coalesce(tops.top_iops, '{{}}') FROM sums LEFT JOIN tops USING (segment_id)
"""


def window_base_ensure(*, target_id: int, first_day: dt.date, last_day: dt.date, ranks: int = 1,
                       keep: int | None = None) -> int | None:
    """The id of a current WindowBase over [first_day, last_day] that keeps at least ``ranks`` top values.

    Built (keeping ``keep`` values, default ``ranks``) when missing, stale or
    too short; None for an empty range. Keeping only what a p95 can need
    (9 of 144 hourly values a week) makes the build 3x faster than TOP_IOPS.
    """
    keep = max(keep or ranks, ranks)
    if last_day < first_day:
        return None
    with roomy_sorts():
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [_BASE_LOCK_NAMESPACE, target_id])
        # The version is read before the rows: a change committed in between makes the base look
        # stale (rebuilt next time), never current while missing that change.
        version = RollupDay.objects.filter(target_id=target_id, day__range=(first_day, last_day)).aggregate(
            v=Max("version"))["v"] or 0
        base = WindowBase.objects.filter(target_id=target_id).first()
        if base and (base.first_day, base.last_day, base.version) == (first_day, last_day, version) \
                and base.ranks >= ranks:
            return base.id
        with connection.cursor() as cursor:
            if base:
                cursor.execute("DELETE FROM snapshots_windowbaserow WHERE base_id = %s", [base.id])
                base.first_day, base.last_day, base.version, base.ranks, base.built_at = (
                    first_day, last_day, version, keep, timezone.now())
                base.save()
            else:
                base = WindowBase.objects.create(target_id=target_id, first_day=first_day, last_day=last_day,
                                                 version=version, ranks=keep, built_at=timezone.now())
            cursor.execute(
                _BASE_SQL.format(sums=", ".join(f"sum({c})" for c in COUNTERS), columns=", ".join(COUNTERS)),
                {"target": target_id, "first": first_day, "last": last_day, "top": keep, "base": base.id})
        return base.id


def window_base_drop(*, target_id: int) -> None:
    """Forget a target's WindowBase and its rows (in bulk, not row by row through the ORM)."""
    with connection.cursor() as cursor:
        cursor.execute("DELETE FROM snapshots_windowbaserow r USING snapshots_windowbase b "
                       "WHERE b.id = r.base_id AND b.target_id = %s", [target_id])
        cursor.execute("DELETE FROM snapshots_windowbase WHERE target_id = %s", [target_id])


# --------------------------------------------------------------------------- the reference: raw statistics


_AGG = {"p95": "percentile_disc(0.95) WITHIN GROUP (ORDER BY iops)", "avg": "avg(iops)", "max": "max(iops)"}

_RAW_SQL = """
WITH per_snap AS (
  SELECT st.segment_id, (sn.end_at AT TIME ZONE 'UTC')::date AS day, sn.kind = 'sample' AS from_samples,
         max(st.interval_s) AS interval_s,
         {sums}
  FROM snapshots_segmentstat st JOIN snapshots_snapshot sn ON sn.id = st.snapshot_id
  WHERE sn.target_id = %(target)s AND sn.end_at >= %(start)s AND sn.end_at < %(end)s AND st.interval_s > 0
  GROUP BY st.segment_id, 2, sn.kind, sn.snap_id
), chosen AS (
  SELECT *, (read_requests + write_requests) / interval_s AS iops,
         bool_and(from_samples) OVER (PARTITION BY segment_id, day) AS only_samples
  FROM per_snap
)
SELECT segment_id::int8, bool_and(from_samples), {totals}, sum(interval_s)::float8, count(*)::int8,
       sum(iops)::float8, ({agg})::float8
FROM chosen WHERE from_samples = only_samples GROUP BY segment_id
"""


def raw_window_figures(*, target_id: int, last_day: dt.date, days: int, statistic: str = "p95") -> WindowArrays:
    """The same figures as :func:`window_figures`, computed from every raw statistic of the window (slow, exact)."""
    first_day, last_day = window_days(last_day=last_day, days=days)
    start, end = _day_bounds(first_day, last_day)
    sql = _RAW_SQL.format(
        sums=", ".join(f"sum(coalesce(st.{_RAW[c]}, 0)) AS {c}" for c in COUNTERS),
        totals=", ".join(f"sum({c})::int8" for c in COUNTERS), agg=_AGG[statistic])
    columns = [("segment_id", "int8"), ("from_samples", "bool"), *((name, "int8") for name in COUNTERS),
               ("covered_s", "float8"), ("intervals", "int8"), ("iops_sum", "float8"), ("iops", "float8")]
    with roomy_sorts(), connection.cursor() as cursor:
        data = fetch_arrays(cursor.cursor, sql, {"target": target_id, "start": start, "end": end}, columns)
    return _arrays(first_day, last_day, statistic, data, data["iops"])


_RAW = {"read_requests": "physical_read_requests", "write_requests": "physical_write_requests",
        "physical_reads_blocks": "physical_reads_blocks", "physical_reads_direct_blocks": "physical_reads_direct_blocks",
        "optimized_physical_reads": "optimized_physical_reads", "table_scans": "table_scans",
        "db_block_changes": "db_block_changes", "logical_reads": "logical_reads"}
