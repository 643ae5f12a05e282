"""Two periods of a target compared per segment: whose IO changed, by how much, which are new or gone.

Each period's figures come from the daily rollups
(apps.snapshots.periods.target_period_figures); the comparison is numpy
over every segment of the target at once, never a Python loop per row.

A segment's state in a period is one of:

- ``measured``: its requests are all known, ``iops`` is its figure;
- ``partial``: some of its requests were not captured (top-N gaps), the
  figure is unknown (NaN), with an upper bound where the source gave one;
- ``absent``: no row of it in the period. When the period holds complete
  snapshots (the demo, V$ samples), it did no IO there: "new" in the later
  period, "gone" from it. When the period holds only top-N snapshots (AWR,
  reports), it was below their capture: unknown, never 0.

The change (B - A) and the relative change ((B - A) / A) are known only where
both figures are measured; a segment new or gone has no relative change (not
±100 % of zero), and its absolute change is its figure in the period it has.
"""

from __future__ import annotations

import datetime as dt
import functools
from dataclasses import dataclass

import numpy as np

from apps.core.db import in_parallel
from apps.core.time import day_bounds
from apps.snapshots.periods import PeriodCoverage, period_coverage, target_period_figures
from apps.snapshots.rollups import segment_days_roll_up

MEASURED, PARTIAL, ABSENT = 0, 1, 2
#: A segment's status in the comparison.
BOTH, NEW, GONE, UNKNOWN = "both", "new", "gone", "unknown"


@dataclass(frozen=True)
class Comparison:
    """Every segment active in either period, one numpy array per figure, in the same order."""

    statistic: str
    a_days: tuple[dt.date, dt.date]
    b_days: tuple[dt.date, dt.date]
    a_coverage: PeriodCoverage
    b_coverage: PeriodCoverage
    segment_id: np.ndarray  # int64
    a_state: np.ndarray  # int8: MEASURED, PARTIAL, ABSENT
    b_state: np.ndarray
    a_iops: np.ndarray  # float64, NaN where unknown; 0 where absent from complete snapshots
    b_iops: np.ndarray
    a_bound: np.ndarray  # float64: an upper bound where PARTIAL (NaN: none given)
    b_bound: np.ndarray
    status: np.ndarray  # str: BOTH, NEW, GONE, UNKNOWN
    change: np.ndarray  # float64: B - A (a new or gone segment's own figure, signed); NaN where unknown
    relative: np.ndarray  # float64: (B - A) / A where both measured and A > 0, else NaN

    def __len__(self) -> int:
        return int(self.segment_id.size)


def periods_compare(*, target_id: int, a_days: tuple[dt.date, dt.date], b_days: tuple[dt.date, dt.date],
                    statistic: str, roll_up: bool = True) -> Comparison:
    """Period A (``a_days``: first and last UTC day) against period B, per segment of the target; the daily
    rollups brought up to date first unless ``roll_up`` is False (the caller did). The two periods are read
    at once, each on a connection of its own (outside a transaction)."""
    if roll_up:
        segment_days_roll_up(target_id=target_id)
    coverages = [period_coverage(target_id=target_id, start_at=start, stop_at=stop)
                 for start, stop in (day_bounds(*a_days), day_bounds(*b_days))]
    parts = in_parallel(*(functools.partial(target_period_figures, target_id=target_id, first_day=first,
                                            last_day=last, statistic=statistic, roll_up=False)
                          for first, last in (a_days, b_days)))
    ids = np.union1d(parts[0].segment_id, parts[1].segment_id).astype(np.int64)
    states, values, bounds = [], [], []
    for part, coverage in zip(parts, coverages):
        state = np.full(ids.size, ABSENT, dtype=np.int8)
        value = np.full(ids.size, np.nan if coverage.gaps or coverage.empty else 0.0)
        bound = np.full(ids.size, np.nan)
        at = np.searchsorted(ids, part.segment_id)
        unmeasured = part.unmeasured
        state[at] = np.where(unmeasured, PARTIAL, MEASURED)
        value[at] = np.where(unmeasured, np.nan, part.iops)
        bound[at] = np.where(unmeasured, part.iops_bound, np.nan)
        states.append(state)
        values.append(value)
        bounds.append(bound)
    a_state, b_state = states
    a_iops, b_iops = values
    # Absent from complete snapshots is 0 IO (known); from top-N ones, unknown (NaN, set above).
    a_known, b_known = ~np.isnan(a_iops), ~np.isnan(b_iops)
    status = np.full(ids.size, UNKNOWN, dtype=object)
    both = (a_state == MEASURED) & (b_state == MEASURED)
    status[both] = BOTH
    new = (a_state == ABSENT) & a_known & (b_state != ABSENT)
    gone = (b_state == ABSENT) & b_known & (a_state != ABSENT)
    status[new], status[gone] = NEW, GONE
    change = np.where(a_known & b_known, b_iops - a_iops, np.nan)
    change = np.where((new & b_known) | (gone & a_known) | both, change, np.nan)
    relative = np.divide(change, a_iops, out=np.full(ids.size, np.nan), where=both & (a_iops > 0))
    return Comparison(statistic, a_days, b_days, coverages[0], coverages[1], ids, a_state, b_state, a_iops, b_iops,
                      bounds[0], bounds[1], status.astype(str), change, relative)


#: Orders of a comparison: a key (higher first) per row; NaN keys come last.
ORDERS = {
    "change": lambda c: np.abs(c.change),
    "rise": lambda c: c.change,
    "fall": lambda c: -c.change,
    "relative": lambda c: np.abs(c.relative),
    "a": lambda c: c.a_iops,
    "b": lambda c: c.b_iops,
}


def comparison_order(comparison: Comparison, *, order: str, rows: np.ndarray | None = None) -> np.ndarray:
    """Row numbers of ``comparison`` (of ``rows`` only, when given) in ``order`` (see ORDERS): highest key
    first, unknown keys last, ties by segment id."""
    if order not in ORDERS:
        raise ValueError(f"order must be one of {', '.join(ORDERS)}, not {order!r}")
    rows = np.arange(len(comparison)) if rows is None else np.asarray(rows, dtype=np.int64)
    key = ORDERS[order](comparison)[rows]
    known = ~np.isnan(key)
    # lexsort: the last key is the primary one.
    sorted_rows = np.lexsort((comparison.segment_id[rows], -np.where(known, key, 0.0), ~known))
    return rows[sorted_rows]
