"""Per-segment activity as numpy arrays: the algebra of the rollups, free of Django.

An :class:`Activity` summarises some per-snapshot figures per key: per
segment and source for a day's rollup (AWR/demo/report snapshots and V$
samples measure the same time, so a day keeps them apart), per segment for a
window. For each key it holds the counters summed, the seconds covered, how
many per-snapshot IOPS values it stands for, their sum, and the largest
``keep`` of them, highest first (-1 pads). Two activities merge by adding the
sums and keeping the largest values of both, which keeps a p95 exact: the
k-th largest of a union is among the k largest of each part.

A rollup is stored as one blob (:meth:`Activity.to_bytes`): a refresh reads
every segment's rollup at once, and one 30 MB value reads in milliseconds
where 100k rows of arrays take most of a second.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

COUNTERS = ("read_requests", "write_requests", "physical_reads_blocks", "physical_reads_direct_blocks",
            "optimized_physical_reads", "table_scans", "db_block_changes", "logical_reads",
            # Top-N gaps (apps.targets.rows.SegmentStat): rows whose read (write) requests were not measured,
            # the upper bounds the source gave for them, and how many of them have no bound at all.
            "reads_unmeasured", "writes_unmeasured", "read_requests_bound", "write_requests_bound",
            "reads_unbounded", "writes_unbounded")
READS, WRITES = COUNTERS.index("read_requests"), COUNTERS.index("write_requests")

# Each counter as the SQL expression it sums over a raw statistic: apps.snapshots.sql.COUNTER_SQL.

#: One stored row: little-endian, so a blob reads the same on any machine.
ROW = np.dtype([("segment_id", "<i8"), ("from_samples", "?"), ("counters", "<i8", (len(COUNTERS),)),
                ("covered_s", "<f8"), ("intervals", "<i8"), ("iops_sum", "<f8")])


@dataclass(frozen=True)
class Activity:
    """Rows sorted by (segment_id, from_samples), one per key; see the module docstring."""

    segment_id: np.ndarray  # int64
    from_samples: np.ndarray  # bool: only V$ samples measured it
    counters: np.ndarray  # int64, (rows, len(COUNTERS))
    covered_s: np.ndarray  # float64
    intervals: np.ndarray  # int64: per-snapshot values summarised
    iops_sum: np.ndarray  # float64
    tops: np.ndarray  # float64, (rows, width): the largest values, highest first, -1 pads

    def __len__(self) -> int:
        return int(self.segment_id.size)

    @property
    def width(self) -> int:
        return int(self.tops.shape[1])

    def counter(self, name: str) -> np.ndarray:
        return self.counters[:, COUNTERS.index(name)]

    def take(self, rows: np.ndarray) -> Activity:
        return Activity(self.segment_id[rows], self.from_samples[rows], self.counters[rows], self.covered_s[rows],
                        self.intervals[rows], self.iops_sum[rows], self.tops[rows])

    def cut(self, keep: int) -> Activity:
        """The same, keeping at most ``keep`` top values per row."""
        if self.width <= keep:
            return self
        return Activity(self.segment_id, self.from_samples, self.counters, self.covered_s, self.intervals,
                        self.iops_sum, self.tops[:, :keep])

    def to_bytes(self) -> bytes:
        rows = np.empty(len(self), dtype=ROW)
        for name in ROW.names or ():  # a structured dtype's: never None
            rows[name] = getattr(self, name)
        return rows.tobytes() + np.ascontiguousarray(self.tops, dtype="<f8").tobytes()

    @classmethod
    def from_bytes(cls, data: bytes | memoryview, *, rows: int, width: int) -> Activity:
        expected = rows * (ROW.itemsize + 8 * width)
        if len(data) != expected:
            raise ValueError(f"a rollup of {rows} rows and {width} top values has {expected} bytes, not {len(data)}")
        table = np.frombuffer(data, dtype=ROW, count=rows)
        tops = np.frombuffer(data, dtype="<f8", offset=rows * ROW.itemsize).reshape(rows, width)
        return cls(table["segment_id"].astype(np.int64), table["from_samples"].copy(),
                   table["counters"].astype(np.int64), table["covered_s"].astype(np.float64),
                   table["intervals"].astype(np.int64), table["iops_sum"].astype(np.float64),
                   tops.astype(np.float64))

    @classmethod
    def empty(cls) -> Activity:
        return cls(np.zeros(0, np.int64), np.zeros(0, bool), np.zeros((0, len(COUNTERS)), np.int64),
                   np.zeros(0), np.zeros(0, np.int64), np.zeros(0), np.zeros((0, 0)))


def from_snapshots(*, segment_id: np.ndarray, from_samples: np.ndarray, snapshot: np.ndarray,
                   counters: np.ndarray, interval_s: np.ndarray, keep: int) -> Activity:
    """Per (segment, source): the rows of snapshots summed up, one IOPS value per snapshot.

    Each input row is one segment in one instance's snapshot; the instances
    of one ``snapshot`` (a number per (kind, dbid, snap_id): the instances of
    a RAC snapshot share it, two databases or two kinds never do) are summed
    first, over the longest of their intervals. A snapshot's IOPS is (read +
    write requests) / interval.
    """
    segment_id = np.asarray(segment_id, dtype=np.int64)
    from_samples = np.asarray(from_samples, dtype=bool)
    snapshot = np.asarray(snapshot, dtype=np.int64)
    counters = np.asarray(counters, dtype=np.int64).reshape(segment_id.size, len(COUNTERS))
    interval_s = np.asarray(interval_s, dtype=np.float64)
    order = np.lexsort((snapshot, from_samples, segment_id))
    segment_id, from_samples, snapshot = segment_id[order], from_samples[order], snapshot[order]
    counters, interval_s = counters[order], interval_s[order]
    starts = _group_starts(segment_id, from_samples, snapshot)
    if starts.size < segment_id.size:  # instances to sum
        counters = np.add.reduceat(counters, starts, axis=0)
        interval_s = np.maximum.reduceat(interval_s, starts)
        segment_id, from_samples = segment_id[starts], from_samples[starts]
    iops = (counters[:, READS] + counters[:, WRITES]) / interval_s
    # Sorted by key, then by IOPS highest first: each key's values lie together, in rank order.
    order = np.lexsort((-iops, from_samples, segment_id))
    segment_id, from_samples, counters = segment_id[order], from_samples[order], counters[order]
    interval_s, iops = interval_s[order], iops[order]
    starts = _group_starts(segment_id, from_samples)
    if not starts.size:
        return Activity.empty()
    first = np.zeros(segment_id.size, dtype=bool)
    first[starts] = True
    group = np.cumsum(first) - 1
    rank = np.arange(segment_id.size) - starts[group]
    width = min(keep, int(rank.max()) + 1)
    tops = np.full((starts.size, width), -1.0)
    kept = rank < width
    tops[group[kept], rank[kept]] = iops[kept]
    return Activity(
        segment_id[starts], from_samples[starts], np.add.reduceat(counters, starts, axis=0),
        np.add.reduceat(interval_s, starts), np.diff(np.append(starts, segment_id.size)),
        np.add.reduceat(iops, starts), tops,
    )


def merge(a: Activity, b: Activity, *, keep: int, by_source: bool = True) -> Activity:
    """a and b summed per key; each has at most one row per key.

    ``by_source``: the key is (segment, source), as in a day's rollup; else the
    segment alone, and a row is from samples only when both parts' are.
    """
    return merge_many([a, b], keep=keep, by_source=by_source)


def merge_many(parts: list[Activity], *, keep: int, by_source: bool = True) -> Activity:
    """Every part summed per key at once (see :func:`merge`): one sort of their top values side by side
    instead of one per pair, for a few parts (a day's rollup and its parts); the sums are added in the
    parts' order, as merging them one after the other does."""
    parts = [part for part in parts if len(part)]
    if len(parts) < 2:
        return parts[0].cut(keep) if parts else Activity.empty()
    keys_of = [_keys(part, by_source) for part in parts]
    if all(np.array_equal(keys_of[0], keys) for keys in keys_of[1:]):  # the usual case: the same segments
        keys = keys_of[0]
        at_of = [np.arange(keys.size)] * len(parts)
    else:
        keys = functools.reduce(np.union1d, keys_of)
        at_of = [np.searchsorted(keys, part_keys) for part_keys in keys_of]
    n = keys.size
    counters = np.zeros((n, len(COUNTERS)), dtype=np.int64)
    covered, intervals, iops_sum = np.zeros(n), np.zeros(n, dtype=np.int64), np.zeros(n)
    from_samples = np.ones(n, dtype=bool)
    tops = np.full((n, sum(min(part.width, keep) for part in parts)), -1.0)
    offset = 0
    for part, at in zip(parts, at_of, strict=True):
        counters[at] += part.counters
        covered[at] += part.covered_s
        intervals[at] += part.intervals
        iops_sum[at] += part.iops_sum
        from_samples[at] &= part.from_samples
        width = min(part.width, keep)
        tops[at, offset:offset + width] = part.tops[:, :width]
        offset += width
    tops = -np.sort(-tops, axis=1)[:, :keep]
    used = int((tops >= 0).sum(axis=1).max(initial=0))
    segment_id = keys >> 1 if by_source else keys
    if by_source:
        from_samples = (keys & 1).astype(bool)
    return Activity(segment_id, from_samples, counters, covered, intervals, iops_sum, tops[:, :max(used, 0)])


def merge_all(parts: Iterable[Activity], *, keep: int, by_source: bool = True) -> Activity:
    """Every part merged (see :func:`merge`), two at a time so no matrix grows past 2 x keep values a row
    (and a generator of parts is read one part at a time)."""
    merged = Activity.empty()
    for part in parts:
        merged = merge(merged, part, keep=keep, by_source=by_source)
    return merged


def prefer_snapshots(day: Activity) -> Activity:
    """Per segment, its snapshots' row when it has one, else its samples' row (a day never uses both)."""
    if not len(day):
        return day
    first = np.r_[True, day.segment_id[1:] != day.segment_id[:-1]]  # rows sorted snapshots (False) first
    return day.take(np.flatnonzero(first))


def kth_largest(tops: np.ndarray, k: np.ndarray) -> np.ndarray:
    """Row-wise k-th largest (1-based) of values sorted highest first; 0 where k is 0 or beyond them."""
    if not tops.shape[0]:
        return np.zeros(0)
    if not tops.shape[1]:
        return np.zeros(tops.shape[0])
    picked = tops[np.arange(tops.shape[0]), np.clip(k - 1, 0, tops.shape[1] - 1)]
    return np.where((k > 0) & (k <= tops.shape[1]), np.maximum(picked, 0.0), 0.0)


def _keys(activity: Activity, by_source: bool) -> np.ndarray:
    return activity.segment_id * 2 + activity.from_samples if by_source else activity.segment_id


def _group_starts(*keys: np.ndarray) -> np.ndarray:
    """Where each run of equal key tuples begins in rows sorted by them."""
    if not keys[0].size:
        return np.zeros(0, dtype=np.int64)
    change = np.zeros(keys[0].size - 1, dtype=bool)
    for key in keys:
        change |= key[1:] != key[:-1]
    return np.flatnonzero(np.r_[True, change])
