"""Selector rows -> Chart.js data payloads (labels, series, call-outs).

Pure functions: no queries, no chart options (those live in static/js/charts/).
Times become short UTC labels here because the pages use category axes.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import numpy as np

from apps.dashboard.rows import FlashSample, ResidencyRow, ResidencySample, SegmentPoints, SegmentSample, TierCost
from apps.tiering.costmodel import PER_MONTH, BillingBasis

SKEW_MAX_POINTS = 400  # enough for a smooth curve; the page stays small with 100k segments
SCATTER_MAX_POINTS = 4000
SKEW_IO_SHARES = (0.5, 0.8, 0.9, 0.95, 0.99)
MB = 1024**2


def time_label(moment: dt.datetime) -> str:
    """
    >>> time_label(dt.datetime(2026, 11, 14, 3, 0, tzinfo=dt.timezone.utc))
    '11-14 03:00'
    """
    return moment.astimezone(dt.timezone.utc).strftime("%m-%d %H:%M")


def scatter_payload(
    points: SegmentPoints, *, labels: Callable[[list[int]], Mapping[int, str]], tier_order: Sequence[str],
    break_evens: Sequence[tuple[str, str, float | None]], max_points: int = SCATTER_MAX_POINTS,
) -> dict[str, Any]:
    """Intensity (y) against size (x), one series per recommended tier, plus break-even lines.

    Points without a size or with no IO cannot sit on log axes; they are counted in ``omitted``. Of the
    ``plotted`` others at most ``max_points`` are ``shown`` (see _thinned): a browser draws 100k points
    slowly, and the page would weigh 12 MB. ``labels`` names the shown segments (segment id -> label).
    """
    by_tier: dict[str, list[dict[str, Any]]] = {name: [] for name in tier_order}
    with np.errstate(invalid="ignore"):
        plottable = np.flatnonzero((points.size_gb > 0) & (points.intensity > 0))
    shown = _thinned(points, plottable, max_points)
    names = labels([int(i) for i in points.segment_id[shown]])
    for i in shown:
        segment_id = int(points.segment_id[i])
        by_tier.setdefault(points.tier[i] or "no recommendation", []).append(
            {"x": float(points.size_gb[i]), "y": float(points.intensity[i]), "name": names.get(segment_id, ""),
             "iops": float(points.iops[i]), "id": segment_id}
        )
    return {
        "series": [{"tier": name, "points": pts} for name, pts in by_tier.items()],
        "plotted": int(plottable.size), "shown": int(shown.size), "omitted": len(points) - int(plottable.size),
        "breakEvens": [
            {"label": f"{lower} / {upper}", "intensity": intensity}
            for lower, upper, intensity in break_evens if intensity is not None
        ],
    }


def _thinned(points: SegmentPoints, rows: np.ndarray, limit: int) -> np.ndarray:
    """At most ``limit`` of ``rows``, laid out like all of them: per tier, the busiest segment of each cell
    of a log-log grid, the grid coarsened until few enough cells are taken. Outliers keep a cell of their own.

    >>> many = SegmentPoints.of([(i, 1.0 + i / 1000, 5.0, "t") for i in range(100)])
    >>> len(_thinned(many, np.arange(100), 10)) <= 10, len(_thinned(many, np.arange(100), 1000))
    (True, 100)
    """
    if rows.size <= limit:
        return rows
    _, tier = np.unique(points.tier[rows].astype(str), return_inverse=True)
    log_x, log_y = np.log10(points.size_gb[rows]), np.log10(points.intensity[rows])
    iops = points.iops[rows]
    cells_per_decade = 32
    while True:
        cell_x, cell_y = np.floor(log_x * cells_per_decade), np.floor(log_y * cells_per_decade)
        order = np.lexsort((-iops, cell_y, cell_x, tier))  # per cell, the busiest first
        first = np.r_[True, (np.diff(tier[order]) != 0) | (np.diff(cell_x[order]) != 0)
                      | (np.diff(cell_y[order]) != 0)]
        chosen = np.sort(order[first])
        if chosen.size <= limit or cells_per_decade == 1:
            return rows[chosen]
        cells_per_decade //= 2


@dataclass(frozen=True)
class SkewCurve:
    points: list[dict[str, float]]  # x: % of capacity, y: % of IO
    callouts: list[dict[str, float]]  # io_pct -> capacity_pct
    total_iops: float
    total_gb: float
    segments: int
    unmeasured: int = 0  # sized segments left out: their IO was not all measured (a top-N gap)


def skew_curve(points: SegmentPoints) -> SkewCurve:
    """Cumulative share of IO against cumulative share of capacity, hottest segments first.

    Segments without a size are left out (they have no capacity share), and so are those whose IO was
    not measured (NaN IOPS: a share of an unknown total would be made up); ``unmeasured`` counts them.

    >>> c = skew_curve(SegmentPoints.of([(1, 1.0, 90.0, ""), (2, 9.0, 10.0, "")])); c.points
    [{'x': 0.0, 'y': 0.0}, {'x': 10.0, 'y': 90.0}, {'x': 100.0, 'y': 100.0}]
    >>> c.callouts[1]
    {'io_pct': 80.0, 'capacity_pct': 8.89}
    """
    with np.errstate(invalid="ignore"):
        sized = points.size_gb > 0
    unmeasured = sized & np.isnan(points.iops)
    sized &= ~unmeasured
    size, iops = points.size_gb[sized], points.iops[sized]
    order = np.argsort(-(iops / size), kind="stable")  # hottest first; ties keep their order
    cum_gb, cum_iops = np.cumsum(size[order]), np.cumsum(iops[order])
    total_gb = float(cum_gb[-1]) if size.size else 0.0
    total_iops = float(cum_iops[-1]) if size.size else 0.0
    x = np.r_[0.0, cum_gb / total_gb * 100] if size.size else np.zeros(1)
    y = np.r_[0.0, cum_iops / total_iops * 100 if total_iops else np.zeros(size.size)]
    curve = list(zip(x.tolist(), y.tolist()))
    callouts = [
        {"io_pct": round(share * 100, 1), "capacity_pct": round(_capacity_at(x, y, share * 100), 2)}
        for share in SKEW_IO_SHARES
    ] if total_iops else []
    return SkewCurve(
        points=[{"x": round(px, 3), "y": round(py, 3)} for px, py in _thin(curve, SKEW_MAX_POINTS)],
        callouts=callouts, total_iops=total_iops, total_gb=total_gb, segments=int(size.size),
        unmeasured=int(unmeasured.sum()),
    )


def _capacity_at(x: np.ndarray, y: np.ndarray, io_pct: float) -> float:
    """Capacity share where the curve first reaches ``io_pct`` (linear between points)."""
    reached = np.flatnonzero(y[1:] >= io_pct)
    if not reached.size:
        return 100.0
    i = int(reached[0]) + 1
    x0, y0, x1, y1 = x[i - 1], y[i - 1], x[i], y[i]
    return float(x1 if y1 == y0 else x0 + (x1 - x0) * (io_pct - y0) / (y1 - y0))


def _thin(curve: list[tuple[float, float]], limit: int) -> list[tuple[float, float]]:
    if len(curve) <= limit:
        return curve
    step = (len(curve) - 1) / (limit - 1)
    return [curve[round(i * step)] for i in range(limit)]


def tier_cost_payload(rows: Sequence[TierCost], *, basis: BillingBasis | None = None) -> dict[str, Any]:
    """Stacked bars: one series per tier, values [cost now, cost after], per month (``unit``): a purchase set's
    figures are divided by its amortisation months (``basis``; None: monthly already)."""
    divisor = basis.divisor if basis else 1

    def month(amount: Decimal) -> float:
        return float(amount / divisor)

    return {
        "labels": ["Now", "Recommended"],
        "unit": PER_MONTH,
        "series": [{"tier": r.tier, "values": [month(r.now_usd), month(r.after_usd)]} for r in rows],
        "totals": [month(sum((r.now_usd for r in rows), Decimal(0))), month(sum((r.after_usd for r in rows), Decimal(0)))],
    }


def residency_payload(rows: Sequence[ResidencyRow], *, block_size_bytes: int) -> dict[str, Any]:
    """Flash-cache and buffer-cache MB per segment (horizontal stacked bars)."""
    return {
        "labels": [r.label for r in rows],
        "flashMb": [round(r.flash_blocks * block_size_bytes / MB, 1) for r in rows],
        "cacheMb": [round(r.cache_blocks * block_size_bytes / MB, 1) for r in rows],
    }


def _ratio(numerator: int | None, denominator: int | None) -> float | None:
    return None if numerator is None or not denominator else numerator / denominator


def flash_hit_ratio(samples: Sequence[FlashSample]) -> float | None:
    """Flash-cache hits over physical read requests across all samples (0..1), None when not collected."""
    hits = [s.hits for s in samples if s.hits is not None and s.read_requests]
    if not hits:
        return None
    return _ratio(sum(hits), sum(s.read_requests or 0 for s in samples if s.hits is not None))


def flash_series_payload(samples: Sequence[FlashSample]) -> dict[str, Any]:
    """Per snapshot: hit ratio (%), flash-cache hits per second and inserts per second."""
    def per_s(count: int | None, s: FlashSample) -> float | None:
        return None if count is None or s.interval_s <= 0 else round(count / s.interval_s, 2)

    ratios = [_ratio(s.hits, s.read_requests) for s in samples]
    return {
        "labels": [time_label(s.end_at) for s in samples],
        "hitRatioPct": [None if r is None else round(r * 100, 2) for r in ratios],
        "hitsPerS": [per_s(s.hits, s) for s in samples],
        "insertsPerS": [per_s(s.inserts, s) for s in samples],
    }


def segment_io_payload(samples: Sequence[SegmentSample]) -> dict[str, Any]:
    """Read and write requests per snapshot."""
    return {
        "labels": [time_label(s.end_at) for s in samples],
        "reads": [s.read_requests for s in samples],
        "writes": [s.write_requests for s in samples],
    }


def segment_size_payload(samples: Sequence[SegmentSample], *, current_size_bytes: int | None) -> dict[str, Any]:
    """Size (GB) per snapshot from the allocated space where collected, else the current size throughout."""
    measured = any(s.space_allocated_bytes is not None for s in samples)
    sizes: list[float | None] = []
    for s in samples:
        size_bytes = s.space_allocated_bytes if measured else current_size_bytes
        sizes.append(None if size_bytes is None else round(size_bytes / 1024**3, 4))
    return {"labels": [time_label(s.end_at) for s in samples], "sizeGb": sizes, "measured": measured}


def residency_series_payload(samples: Sequence[ResidencySample], *, block_size_bytes: int) -> dict[str, Any]:
    return {
        "labels": [time_label(s.collected_at) for s in samples],
        "flashMb": [round(s.flash_blocks * block_size_bytes / MB, 1) for s in samples],
        "cacheMb": [round(s.cache_blocks * block_size_bytes / MB, 1) for s in samples],
    }


def partition_heat_payload(rows: Sequence[Any]) -> dict[str, Any]:
    """Intensity by partition age for the chart of a partitioned table (rows: PartitionHeat, oldest first).

    Age counts partitions back from the hottest measured one (apps.tiering.recommendations.lifecycle): 0 the hot one, 1 the
    one before it, -1 the one after. Intensity stays None where it was not measured (drawn as a gap, never
    as 0).

    >>> from types import SimpleNamespace as P
    >>> partition_heat_payload([P(partition="P1", intensity=0.5, measured=True, recommended_tier="Fast", is_this=False),
    ...     P(partition="P2", intensity=40.0, measured=True, recommended_tier="Flash", is_this=True),
    ...     P(partition="P3", intensity=None, measured=False, recommended_tier=None, is_this=False)])["ages"]
    [1, 0, -1]
    """
    known = [i for i, row in enumerate(rows) if row.measured and row.intensity is not None]
    hot = max(known, key=lambda i: rows[i].intensity) if known else None
    return {
        "labels": [row.partition for row in rows],
        "ages": [None if hot is None else hot - i for i in range(len(rows))],
        "intensity": [row.intensity if row.measured else None for row in rows],
        "tiers": [row.recommended_tier for row in rows],
        "current": [row.is_this for row in rows],
    }
