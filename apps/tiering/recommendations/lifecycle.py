"""Partition lifecycle: a range- or interval-partitioned table whose newest partitions are the hot ones.

Such a table (or local index) fills one partition at a time: the newest partition that holds data takes
the IO, the older ones cool with age, and the partitions created ahead of time stay empty until their
month comes. Priced on its own figures an empty partition belongs on the cheapest tier per GB, so the
cost model alone would put next month's partition on hi-cap disk the month before it becomes the hot one.
Here, for each such group of partitions (apps.tiering.recommendations.decision numbers the groups), the empty partitions
newer than the hot one are placed where the hot one goes; the older ones keep the cost model's tier for
their own measured figures, which is the decay measured from the table's own partitions by age (the segment
page draws it: apps.dashboard.charts.partition_heat_payload).

Partitions are ordered by their bound (apps.targets.partitioning: HIGH_VALUE read as dates and numbers,
MAXVALUE last), never by PARTITION_POSITION, except where the source did not say how the table is
partitioned; a hash partition has no order, so a hash-partitioned table never follows the lifecycle. A
composite table's segments are its subpartitions: each takes its partition's order, so the subpartitions of
one partition are one time slice (same position, age 0 among themselves) and never each other's newer ones.
The hot partition is the one of highest intensity among those measured. The group follows the lifecycle
when no partition newer than the hot one had any IO over the window (the newest partitions are the hot
ones); a list-partitioned table whose IO does not fall to its newest partitions does not. A partition
whose figures were not all measured, whose size is unknown or that cannot be moved is never placed here.

Pure: numpy only.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

#: Fewer partitions (distinct positions: a composite's subpartitions of one partition count once) with a
#: known position than this: no lifecycle is read from them.
MIN_PARTITIONS = 3


@dataclass(frozen=True)
class Lifecycle:
    """Per segment: ``ahead`` (an empty partition newer than its group's hot one: placed with it),
    ``hot`` (the index of its group's hot partition, -1 when the group follows no lifecycle) and ``age``
    (the hot partition's position less its own: 0 the hot one, > 0 older, < 0 newer; 0 without a hot one)."""

    ahead: np.ndarray  # bool
    hot: np.ndarray  # int64, -1: none
    age: np.ndarray  # int64, hot position - own position; meaningful where hot >= 0


def partition_lifecycle(*, groups: np.ndarray, positions: np.ndarray, intensity: np.ndarray,
                        requests: np.ndarray, measured: np.ndarray, placeable: np.ndarray) -> Lifecycle:
    """Which partitions follow their group's hot partition.

    ``groups``: 0 for a segment that is no partition, else its table's or index's number; ``positions``:
    its partition's order by bound, oldest first (<= 0: none; subpartitions of one partition share it); ``intensity``: IOPS/GB (NaN: unknown); ``requests``: read and
    write requests over the window; ``measured``: all its requests measured; ``placeable``: sized and
    movable.

    >>> lc = partition_lifecycle(groups=np.array([7, 7, 7, 7]), positions=np.array([1, 2, 3, 4]),
    ...     intensity=np.array([0.5, 2.0, 40.0, 0.0]), requests=np.array([10, 50, 900, 0]),
    ...     measured=np.ones(4, bool), placeable=np.ones(4, bool))
    >>> lc.ahead.tolist(), lc.hot.tolist(), lc.age.tolist()
    ([False, False, False, True], [2, 2, 2, 2], [2, 1, 0, -1])
    """
    n = groups.size
    ahead = np.zeros(n, dtype=bool)
    hot = np.full(n, -1, dtype=np.int64)
    age = np.zeros(n, dtype=np.int64)
    candidates = np.flatnonzero((groups != 0) & (positions > 0))
    if not candidates.size:
        return Lifecycle(ahead, hot, age)
    order = candidates[np.lexsort((positions[candidates], groups[candidates]))]
    keys = groups[order]
    starts = np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]])
    for start, end in zip(starts, np.append(starts[1:], order.size)):
        members = order[start:end]  # oldest first
        if np.unique(positions[members]).size < MIN_PARTITIONS:
            continue
        known = measured[members] & np.isfinite(intensity[members])
        if not known.any():
            continue
        hottest = members[known][np.argmax(intensity[members][known])]
        if not intensity[hottest] > 0:
            continue
        newer = members[positions[members] > positions[hottest]]
        if (requests[newer][measured[newer]] > 0).any():
            continue  # IO newer than the hottest: not a table whose newest partitions are the hot ones
        hot[members] = hottest
        age[members] = positions[hottest] - positions[members]
        ahead[newer] = measured[newer] & placeable[newer]
    return Lifecycle(ahead, hot, age)
