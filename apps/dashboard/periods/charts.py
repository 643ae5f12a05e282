"""The target page's charts of measured IO (intensity × size scatter, IO skew) over a chosen period.

The points stay the recommendations' segments, sizes and recommended tiers;
their IO/s is the period's, over the whole UTC days it touches, read from the
daily rollups for every segment at once (apps.snapshots.periods). A segment
not measured in the period is left out of both charts (counted as such),
never drawn at 0. Kept in the cache while the run and the rollups of those days
are unchanged.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from typing import Any

import numpy as np
from django.core.cache import cache

from apps.core.time import day_bounds, days_of
from apps.dashboard import charts, selectors
from apps.dashboard.periods.picker import day_range_words
from apps.dashboard.periods.selectors import PeriodView
from apps.dashboard.rows import SegmentPoints
from apps.snapshots.periods import period_coverage, target_period_figures
from apps.snapshots.rollups import day_versions, segment_days_roll_up

CACHE_SECONDS = 600


def period_days(period: PeriodView) -> tuple[dt.date, dt.date]:
    """The whole UTC days a period touches (a rolling 24 h spans two)."""
    return days_of(*period.choice.span)


def period_points(points: SegmentPoints, *, target_id: int, first_day: dt.date, last_day: dt.date,
                  statistic: str) -> SegmentPoints:
    """``points`` with the period's IO/s (NaN where not measured; 0 where complete snapshots had no row)."""
    start_at, stop_at = day_bounds(first_day, last_day)
    coverage = period_coverage(target_id=target_id, start_at=start_at, stop_at=stop_at)
    figures = target_period_figures(target_id=target_id, first_day=first_day, last_day=last_day, statistic=statistic)
    iops = np.full(len(points), np.nan if coverage.empty or coverage.gaps else 0.0)
    order = np.argsort(figures.segment_id)
    ids = figures.segment_id[order]
    if ids.size:
        at = np.clip(np.searchsorted(ids, points.segment_id), 0, ids.size - 1)
        found = ids[at] == points.segment_id
        values = np.where(figures.unmeasured[order], np.nan, figures.iops[order])
        iops[found] = values[at[found]]
    with np.errstate(divide="ignore", invalid="ignore"):
        intensity = np.where(points.size_gb > 0, iops / points.size_gb, np.nan)
    return SegmentPoints(points.segment_id, points.size_gb, iops, intensity, points.tier)


def period_chart_context(period: PeriodView, *, target_id: int, run: Any, scatter: dict[str, Any]) -> dict[str, Any]:
    """The scatter and skew of the target page over the period (their context names); {} without one."""
    if not period.active or run is None:
        return {}

    first, last = period_days(period)
    segment_days_roll_up(target_id=target_id)
    days = sorted(day_versions(target_id=target_id, first_day=first, last_day=last).items())
    key = "tierscope:period-charts:" + hashlib.sha1(repr(
        (target_id, run.pk, first, last, period.choice.statistic, days)).encode()).hexdigest()
    cached = cache.get(key)
    if cached is None:
        points = period_points(selectors.segment_points(target_id=target_id, run_id=run.pk), target_id=target_id,
                               first_day=first, last_day=last, statistic=period.choice.statistic)
        tier_order = [series["tier"] for series in scatter.get("series", ())]
        payload = charts.scatter_payload(points, labels=selectors.segment_labels, tier_order=tier_order, break_evens=[])
        payload["breakEvens"] = scatter.get("breakEvens", [])  # the tier set's, as the recommendations' scatter
        cached = {"scatter": payload, "skew": charts.skew_curve(points)}
        cache.set(key, cached, CACHE_SECONDS)
    skew = cached["skew"]
    return {"scatter": cached["scatter"], "skew": skew, "skew_payload": {"points": skew.points, "callouts": skew.callouts},
            "skew_80": next((c for c in skew.callouts if c["io_pct"] == 80.0), None),
            "period_chart_days": day_range_words(first, last)}
