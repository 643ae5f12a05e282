"""Segments' figures over a chosen period of time: a view of the measured IO, beside the recommendations' window.

A period is the snapshots of the target's current database that end in
[start_at, stop_at), with the rules of a recommendation window
(apps.snapshots.windows): per snapshot, IOPS = (read + write requests) /
interval, RAC instances summed; per segment and UTC day its AWR/demo/report
snapshots, else its V$ samples; the figure of the period is their p95 or mean.

Two reads, each bounded by what it shows:

- :func:`segment_period_figures`: a page's rows (a hundred segment ids),
  read from the raw statistics through the per-segment index
  (segment_stat_series_idx), not the rollups: a day's rollup is one blob of
  every segment of the target (tens of MB at 100k segments), which a page of
  100 rows must not read a month of.
- :func:`target_period_figures`: every segment of the target (a comparison
  of two periods), from the daily rollups merged in numpy, as the
  recommendations' window is, falling back to the raw statistics where a p95
  needs more ranks than the rollups keep.

A figure not measured stays None: a segment absent from a period of top-N
snapshots only (AWR, reports) was not captured, and a period without
snapshots measured nothing; absent from complete snapshots (the demo, V$
samples), it did no IO (0).
"""

from __future__ import annotations

import datetime as dt
import itertools
import math
from dataclasses import dataclass

import numpy as np
from django.db.models import Max

from apps.core.config import get_config
from apps.core.time import day_bounds, utc_day
from apps.snapshots import activity, windows
from apps.snapshots.models import TOP_IOPS, Snapshot
from apps.snapshots.rollups import day_rollup, day_versions, segment_days_roll_up
from apps.snapshots.windows import WindowArrays

#: The statistics a period may be viewed with.
PERIOD_STATISTICS = ("p95", "avg")


@dataclass(frozen=True)
class PeriodCoverage:
    """What a period holds: its snapshot intervals (RAC instances of one counted once), and how many of
    them list only their top-N segments."""

    intervals: int
    top_n: int

    @property
    def empty(self) -> bool:
        return not self.intervals

    @property
    def gaps(self) -> bool:
        """Only top-N snapshots: a segment they do not list was not measured (rather than idle)."""
        return bool(self.top_n) and self.top_n == self.intervals


@dataclass(frozen=True)
class SegmentFigures:
    """One segment over a period, shaped as a recommendation's figures are (so the same cells show it):
    ``measured`` False where some of its requests are unknown (``iops`` None, ``iops_bound`` an upper
    bound or None)."""

    segment_id: int
    measured: bool
    iops: float | None
    read_iops: float | None
    write_iops: float | None
    iops_bound: float | None
    size_gb: float | None = None

    @property
    def intensity(self) -> float | None:
        if self.iops is None or not self.size_gb:
            return None
        return self.iops / self.size_gb


def period_coverage(*, target_id: int, start_at: dt.datetime, stop_at: dt.datetime) -> PeriodCoverage:
    """How many snapshot intervals end in [start_at, stop_at), and how many of them are top-N ones."""
    return PeriodCoverage(intervals=windows.snapshots_between(target_id, start_at, stop_at),
                          top_n=windows.snapshots_between(target_id, start_at, stop_at, top_n_only=True))


def segment_period_figures(*, target_id: int, segment_ids: list[int], start_at: dt.datetime, stop_at: dt.datetime,
                           statistic: str, sizes_gb: dict[int, float | None] | None = None,
                           coverage: PeriodCoverage | None = None) -> dict[int, SegmentFigures]:
    """The figures of ``segment_ids`` over the period, by segment id (every id given has an entry).

    ``sizes_gb`` gives each segment's size for its intensity; ``coverage``: the period's, when the caller
    has it already.
    """
    _check_statistic(statistic)
    coverage = coverage or period_coverage(target_id=target_id, start_at=start_at, stop_at=stop_at)
    sizes_gb = sizes_gb or {}
    ids = sorted({int(pk) for pk in segment_ids})
    figures = {} if coverage.empty or not ids else _figures_by_id(
        windows.raw_figures(target_id, start_at, stop_at, statistic=statistic, segment_ids=ids), sizes_gb)
    unknown_when_absent = coverage.empty or coverage.gaps
    for pk in ids:
        if pk in figures:
            continue
        if unknown_when_absent:  # not captured (or nothing measured at all)
            figures[pk] = SegmentFigures(pk, False, None, None, None, None, sizes_gb.get(pk))
        else:  # complete snapshots without a row of it: no IO
            figures[pk] = SegmentFigures(pk, True, 0.0, 0.0, 0.0, 0.0, sizes_gb.get(pk))
    return figures


def _figures_by_id(arrays: WindowArrays, sizes_gb: dict[int, float | None]) -> dict[int, SegmentFigures]:
    unmeasured, bound = arrays.unmeasured, arrays.iops_bound
    out = {}
    for i, pk in enumerate(arrays.segment_id.tolist()):
        upper = float(bound[i])
        if unmeasured[i]:
            out[pk] = SegmentFigures(pk, False, None, None, None, None if math.isnan(upper) else upper,
                                     sizes_gb.get(pk))
        else:
            out[pk] = SegmentFigures(pk, True, float(arrays.iops[i]), float(arrays.read_iops[i]),
                                     float(arrays.write_iops[i]), float(arrays.iops[i]), sizes_gb.get(pk))
    return out


def target_period_figures(*, target_id: int, first_day: dt.date, last_day: dt.date, statistic: str,
                          roll_up: bool = True) -> WindowArrays:
    """Every segment active in the whole UTC days [first_day, last_day], from the daily rollups (brought up
    to date first unless ``roll_up`` is False: the caller did), or the raw statistics where the p95's rank
    is beyond the TOP_IOPS values they keep.

    Reads no window base and stores none: the recommendations' cached bases stay as they are.
    """
    _check_statistic(statistic)
    if last_day < first_day:
        raise ValueError(f"a period ends on or after its first day, not {last_day} before {first_day}")
    if roll_up:
        segment_days_roll_up(target_id=target_id)
    start, stop = day_bounds(first_day, last_day)
    ranks = 1
    if statistic == "p95":
        ranks = max(1, int(windows.p95_rank(np.array([windows.snapshots_between(target_id, start, stop)]))[0]))
    if ranks > TOP_IOPS:
        return windows.raw_figures(target_id, start, stop, statistic=statistic)
    # A day still going on may have only a part (RollupHour) so far: its version is the higher of the two.
    versions = day_versions(target_id=target_id, first_day=first_day, last_day=last_day)
    # A window base the recommendations keep for days the period starts with (the configured window's
    # complete days, when the period is that window) is read instead of its days; never one built here.
    base = max(windows._current_bases(target_id, first_day, last_day, ranks, versions),
               key=lambda stored: stored.last_day, default=None)
    days = (activity.prefer_snapshots(day_rollup(target_id=target_id, day=day)) for day in sorted(versions)
            if base is None or day > base.last_day)  # read one at a time as merge_all goes
    merged = activity.merge_all(itertools.chain([windows._base_read(base)] if base else [], days),
                                keep=ranks, by_source=False)
    return windows.merged_figures(target_id, first_day, last_day, statistic, merged)


def _check_statistic(statistic: str) -> None:
    if statistic not in PERIOD_STATISTICS:
        raise ValueError(f"a period's statistic is one of {', '.join(PERIOD_STATISTICS)}, not {statistic!r}")


@dataclass(frozen=True)
class PeriodBounds:
    """The days a period may cover: those of the raw statistics kept (RETENTION_DAYS before the target's
    latest snapshot, never after ``now``), ending with the latest snapshot's."""

    latest_at: dt.datetime
    first_day: dt.date
    last_day: dt.date


def period_bounds(*, target_id: int, now: dt.datetime) -> PeriodBounds | None:
    """The target's :class:`PeriodBounds`; None when it has no snapshot."""
    latest = Snapshot.objects.filter(target_id=target_id).aggregate(latest=Max("end_at"))["latest"]
    if latest is None:
        return None
    latest = min(latest, now)
    horizon = latest - dt.timedelta(days=get_config()["RETENTION_DAYS"])
    return PeriodBounds(latest, utc_day(horizon), utc_day(latest))
