"""Small records the dashboard selectors return and dashboard/charts.py reshapes (pure: no Django)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal


@dataclass(frozen=True)
class SegmentPoint:
    """One segment's current recommendation figures (a point on the scatter and the skew curve)."""

    segment_id: int
    label: str
    size_gb: float | None
    iops: float
    intensity: float | None
    tier: str  # recommended tier name, "" when none


@dataclass(frozen=True)
class TierCost:
    tier: str
    now_usd: Decimal
    after_usd: Decimal


@dataclass(frozen=True)
class ResidencyRow:
    segment_id: int
    label: str
    flash_blocks: int
    cache_blocks: int


@dataclass(frozen=True)
class FlashSample:
    """Flash-cache system statistics of one snapshot (instances summed)."""

    end_at: dt.datetime
    interval_s: float
    hits: int | None
    read_requests: int | None
    inserts: int | None


@dataclass(frozen=True)
class SegmentSample:
    """One segment over one snapshot (instances summed)."""

    end_at: dt.datetime
    interval_s: float
    read_requests: int
    write_requests: int
    space_allocated_bytes: int | None


@dataclass(frozen=True)
class ResidencySample:
    collected_at: dt.datetime
    flash_blocks: int
    cache_blocks: int
