"""What every tier kind shares: the object to place, a pool's usage, the Tier base class."""

from __future__ import annotations

import math
from dataclasses import dataclass
from decimal import Decimal

from apps.tiering.costmodel._money import to_decimal


class CostModelError(ValueError):
    """A tier or object is not usable (non-positive size, missing price...)."""



def _ceil_float(quotient: float) -> int:
    # Float sums of decimal inputs drift by an ulp; 3.0000000000000004 devices is 3.
    return math.ceil(quotient - 1e-9)


def _positive(name: str, field_name: str, number: float | int | Decimal | None) -> None:
    if number is None or not number > 0 or not math.isfinite(float(number)):
        raise CostModelError(f"tier {name!r}: {field_name} must be a positive number, got {number!r}")


@dataclass(frozen=True)
class StorageObject:
    """A segment (or any object) to place: its busy-hour IOPS and its size.

    ``current_tier`` is the tier name it sits on now, used to break ties;
    ``read_iops`` (optional) is the read part of ``iops``, for IO time saved.
    """

    name: str
    iops: float
    gb: float
    current_tier: str | None = None
    read_iops: float | None = None

    def __post_init__(self) -> None:
        if not self.gb > 0 or not math.isfinite(self.gb):
            raise CostModelError(f"object {self.name!r}: gb must be positive, got {self.gb!r}")
        if not self.iops >= 0 or not math.isfinite(self.iops):
            raise CostModelError(f"object {self.name!r}: iops must be >= 0, got {self.iops!r}")

    @property
    def intensity(self) -> float:
        """IOPS per GB (0 .. inf; the seed's axis runs 0.25 .. 256)."""
        return self.iops / self.gb


@dataclass(frozen=True)
class TierUsage:
    """What one tier provides and costs for the objects placed on it.

    ``devices`` counts devices (DeviceTier) or volumes (cloud tiers); it is
    None for LinearTier. ``gb``/``iops`` are the capacity provided (devices x
    device figures; billed GB and provisioned IOPS for cloud tiers; the summed
    demand for linear tiers); ``demand_gb``/``demand_iops`` are the sums of the
    objects placed.
    """

    tier_name: str
    devices: int | None
    cost_usd: Decimal
    gb: Decimal
    iops: Decimal
    demand_gb: Decimal
    demand_iops: Decimal
    within_limits: bool = True


@dataclass(frozen=True, kw_only=True)
class Tier:
    """Base class of a storage tier.

    Subclasses implement :attr:`usd_per_gb`, :attr:`usd_per_iops`,
    :meth:`pool_cost_float` (float cost of a pool of ``gb``/``iops``, used by
    the optimizer's inner loops) and :meth:`usage` (the exact ``Decimal``
    figures for a pool). ``object_cost_float`` is the cost of one object alone,
    ``marginal_cost_float`` its cost inside a pool of the tier.
    ``max_gb`` caps the GB placed on the tier (None = unlimited);
    ``read_latency_ms`` is a nominal read latency for "IO time saved".
    """

    name: str
    read_latency_ms: float | None = None
    max_gb: float | None = None

    @property
    def usd_per_gb(self) -> Decimal:
        raise NotImplementedError

    @property
    def usd_per_iops(self) -> Decimal:
        raise NotImplementedError

    @property
    def intensity(self) -> float:
        """Tier intensity = ($/GB) / ($/IOPS): above it an object is IOPS bound."""
        return float(self.usd_per_gb / self.usd_per_iops)

    def object_cost_float(self, gb: float, iops: float) -> float:
        """Cost of one object alone on this tier, in float USD."""
        return self.pool_cost_float(gb, iops)

    def object_cost_usd(self, obj: StorageObject) -> Decimal:
        """Cost of one object alone on this tier, exact."""
        return self.usage(to_decimal(obj.gb), to_decimal(obj.iops)).cost_usd

    def marginal_cost_float(self, gb: float, iops: float) -> float:
        """Cost of one object inside a pool of its tier, in float USD: what adding it to the pool adds,
        without the once-per-pool charges (a cloud volume's minimum size and free IOPS baseline).
        Device and linear tiers have none: the object's share is its cost alone."""
        return self.object_cost_float(gb, iops)

    def pool_cost_float(self, gb: float, iops: float) -> float:
        raise NotImplementedError

    def usage(self, gb: Decimal, iops: Decimal) -> TierUsage:
        raise NotImplementedError

    def _fits(self, gb: Decimal) -> bool:
        return self.max_gb is None or gb <= to_decimal(self.max_gb)


