"""Cumulative counters -> interval deltas, never across a restart, never negative.

Two uses:

* :func:`sample_interval` turns two consecutive :class:`~apps.targets.rows.CounterSample`
  of one instance (V$SEGSTAT / V$SYSSTAT / V$FILESTAT values since startup) into an interval
  :class:`~apps.targets.rows.Snapshot`;
* :func:`cumulative_deltas` turns AWR's cumulative series (DBA_HIST_SYSSTAT.VALUE,
  DBA_HIST_FILESTATXS.PHYRDS ...) into per-snapshot deltas.

Rules for both: counters of different instance incarnations (``startup_at``) are never
subtracted; a counter that went down (segment recreated, file dropped) gives no delta rather
than a negative one; an interval that is not positive gives nothing. Pure: standard library only.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from apps.targets.rows import SEGMENT_STAT_FIELDS, CounterSample, SegmentStat, Snapshot, SysStat, TablespaceIO

#: AWR writes BEGIN_INTERVAL_TIME of a snapshot as the END_INTERVAL_TIME of the one before;
#: allow a little slack for rounding between TIMESTAMP(3) and how it reached us.
CONTIGUITY_TOLERANCE = dt.timedelta(seconds=1)


def _require_aware(moment: dt.datetime, what: str) -> None:
    if moment.tzinfo is None:
        raise ValueError(f"{what} must be an aware UTC datetime, got naive {moment!r}")


def sample_interval(previous: CounterSample | None, current: CounterSample, *, dbid: int) -> Snapshot | None:
    """The interval Snapshot between two cumulative samples of one instance, or None.

    None when there is no previous sample, when the instance restarted in between
    (``startup_at`` differs: the current sample is a new baseline), or when the interval is
    not positive. A segment, statistic or tablespace missing from either sample, or whose
    counter went down, gets no row: absence never turns into a since-startup total and a
    decrease never into a negative figure. Segments whose deltas are all zero are left out.
    """
    _require_aware(current.sampled_at, "current.sampled_at")
    if previous is None:
        return None
    _require_aware(previous.sampled_at, "previous.sampled_at")
    if previous.instance_number != current.instance_number:
        raise ValueError(
            f"samples of different instances: previous is instance {previous.instance_number}, "
            f"current is instance {current.instance_number}"
        )
    if previous.startup_at != current.startup_at:
        return None
    if current.sampled_at <= previous.sampled_at:
        return None
    return Snapshot(
        dbid=dbid,
        instance_number=current.instance_number,
        snap_id=int(current.sampled_at.timestamp()),
        begin_at=previous.sampled_at,
        end_at=current.sampled_at,
        startup_at=current.startup_at,
        segment_stats=_segment_deltas(previous, current),
        sysstats=_sysstat_deltas(previous, current),
        tablespace_io=_tablespace_deltas(previous, current),
        top_n_only=False,
    )


def _segment_deltas(previous: CounterSample, current: CounterSample) -> tuple[SegmentStat, ...]:
    stats = []
    for key, totals in current.segment_totals.items():
        before = previous.segment_totals.get(key)
        place = current.segment_places.get(key)
        # A new DATAOBJ# (TRUNCATE, MOVE, rebuild) restarts the segment's counters.
        if before is None or previous.segment_places.get(key, place) != place:
            continue
        deltas = counter_deltas(before, totals)
        if deltas is None or not any(deltas.values()):
            continue
        tablespace, obj_number, dataobj_number = place if place else ("", None, None)
        # Keyword arguments named by SEGMENT_STAT_FIELDS: their names are known at run time only.
        counters: dict[str, Any] = {name: deltas.get(name) for name in SEGMENT_STAT_FIELDS}
        stats.append(SegmentStat(
            key=key,
            tablespace_name=tablespace,
            obj_number=obj_number,
            dataobj_number=dataobj_number,
            **counters,
        ))
    return tuple(stats)


def counter_deltas(before: dict[str, int], after: dict[str, int]) -> dict[str, int] | None:
    """Per-name ``after - before`` for names in both; None if any of them went down.

    >>> counter_deltas({"logical_reads": 10}, {"logical_reads": 15})
    {'logical_reads': 5}
    >>> counter_deltas({"logical_reads": 10}, {"logical_reads": 3}) is None
    True
    """
    deltas = {}
    for name, value in after.items():
        if name not in before or value is None or before[name] is None:
            continue
        if value < before[name]:
            return None
        deltas[name] = value - before[name]
    return deltas


def _sysstat_deltas(previous: CounterSample, current: CounterSample) -> tuple[SysStat, ...]:
    return tuple(
        SysStat(name=name, value=value - previous.sysstat_totals[name])
        for name, value in current.sysstat_totals.items()
        if name in previous.sysstat_totals and value >= previous.sysstat_totals[name]
    )


def _tablespace_deltas(previous: CounterSample, current: CounterSample) -> tuple[TablespaceIO, ...]:
    result = []
    for name, (reads, writes, read_ms) in current.tablespace_totals.items():
        if name not in previous.tablespace_totals:
            continue
        reads_before, writes_before, read_ms_before = previous.tablespace_totals[name]
        if reads < reads_before or writes < writes_before:
            continue
        time_ms = None
        if read_ms is not None and read_ms_before is not None:
            if read_ms < read_ms_before:
                continue
            time_ms = read_ms - read_ms_before
        result.append(TablespaceIO(name, reads - reads_before, writes - writes_before, time_ms))
    return tuple(result)


@dataclass(frozen=True)
class CumulativePoint:
    """One cumulative reading of a series at an AWR snapshot.

    ``key`` names the series and must include dbid and instance number, e.g.
    ``(dbid, instance_number, "physical read IO requests")``; ``values`` holds one or more
    counters read together (e.g. read requests, write requests, read ms).
    """

    key: tuple[int | str, ...]
    snap_id: int
    startup_at: dt.datetime
    begin_at: dt.datetime
    end_at: dt.datetime
    values: tuple[float, ...]


@dataclass(frozen=True)
class IntervalDelta:
    """The change of a series over the snapshot ``snap_id`` (its begin..end interval)."""

    key: tuple[int | str, ...]
    snap_id: int
    values: tuple[float, ...]


def cumulative_deltas(points: Iterable[CumulativePoint]) -> tuple[IntervalDelta, ...]:
    """Deltas between consecutive points of each series, attributed to the later snapshot.

    A pair gives a delta only when both points have the same ``startup_at`` (no restart in
    between), the later one's interval starts where the earlier one's ended (no AWR gap: a
    missing snapshot would otherwise pile several intervals onto one), and no value went down.
    """
    series: dict[tuple[int | str, ...], list[CumulativePoint]] = defaultdict(list)
    for point in points:
        series[point.key].append(point)
    deltas = []
    for key, readings in series.items():
        readings.sort(key=lambda point: point.snap_id)
        for before, after in zip(readings, readings[1:]):
            _check_pair(before, after)
            delta = _pair_delta(before, after)
            if delta is not None:
                deltas.append(IntervalDelta(key=key, snap_id=after.snap_id, values=delta))
    return tuple(deltas)


def _check_pair(before: CumulativePoint, after: CumulativePoint) -> None:
    if before.snap_id == after.snap_id:
        raise ValueError(f"series {before.key!r} has SNAP_ID {after.snap_id} twice")
    if len(before.values) != len(after.values):
        raise ValueError(
            f"series {before.key!r}: SNAP_ID {before.snap_id} has {len(before.values)} values, "
            f"SNAP_ID {after.snap_id} has {len(after.values)}"
        )


def _pair_delta(before: CumulativePoint, after: CumulativePoint) -> tuple[float, ...] | None:
    if before.startup_at != after.startup_at:
        return None
    if abs(after.begin_at - before.end_at) > CONTIGUITY_TOLERANCE:
        return None
    if after.end_at <= after.begin_at:
        return None
    if any(later < earlier for earlier, later in zip(before.values, after.values)):
        return None
    return tuple(later - earlier for earlier, later in zip(before.values, after.values))
