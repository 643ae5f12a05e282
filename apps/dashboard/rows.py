"""Small records the dashboard selectors return and dashboard/charts.py reshapes (pure: no Django)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

import numpy as np


@dataclass(frozen=True)
class SegmentPoints:
    """Every segment's current recommendation figures (the scatter and the skew curve), as arrays in the
    same order: a target may have 100k segments, too many for an object each."""

    segment_id: np.ndarray  # int64
    size_gb: np.ndarray  # float64, NaN when unknown
    iops: np.ndarray  # float64
    intensity: np.ndarray  # float64, NaN when unknown
    tier: np.ndarray  # object: recommended tier name, "" when none

    def __len__(self) -> int:
        return int(self.segment_id.size)

    @property
    def unsized(self) -> int:
        return int(np.isnan(self.size_gb).sum())

    @classmethod
    def of(cls, rows: list[tuple[int, float | None, float, str]]) -> SegmentPoints:
        """From (segment id, size GB or None, IOPS, tier) rows; the intensity is IOPS per GB."""
        size = np.array([np.nan if r[1] is None else r[1] for r in rows], dtype=np.float64)
        iops = np.array([r[2] for r in rows], dtype=np.float64)
        with np.errstate(divide="ignore", invalid="ignore"):
            intensity = np.where(size > 0, iops / size, np.nan)
        return cls(np.array([r[0] for r in rows], dtype=np.int64), size, iops, intensity,
                   np.array([r[3] for r in rows], dtype=object))


@dataclass(frozen=True)
class TierCost:
    """One tier's cost now and after, in its set's unit: the segments' (marginal) costs plus, on a cloud volume
    tier, the pools' once-per-pool charges (``pool_*_usd``: the volume minimum and free IOPS baseline)."""

    tier: str
    now_usd: Decimal
    after_usd: Decimal
    pool_now_usd: Decimal = Decimal(0)
    pool_after_usd: Decimal = Decimal(0)


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
    read_requests: int | None  # None: not measured on some instance
    write_requests: int | None
    space_allocated_bytes: int | None


@dataclass(frozen=True)
class ResidencySample:
    collected_at: dt.datetime
    flash_blocks: int
    cache_blocks: int
