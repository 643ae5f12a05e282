"""Tiers bought by the device (the seed's form) and tiers priced linearly."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from apps.tiering.costmodel._money import _ceil_div, to_decimal
from apps.tiering.costmodel.base import StorageObject, Tier, TierUsage, _ceil_float, _positive


@dataclass(frozen=True, kw_only=True)
class DeviceTier(Tier):
    """A tier bought by the device: price, GB and IOPS of one device.

    One object costs its share of devices, MAX(IOPS x $/IOPS, GB x $/GB)
    (fractional, as in the seed); a pool costs whole devices:
    max(ceil(sum GB / device_gb), ceil(sum IOPS / device_iops)) x device_cost.
    ``max_devices`` caps the device count (None = unlimited).
    """

    device_cost_usd: Decimal
    device_gb: float
    device_iops: float
    max_devices: int | None = None

    def __post_init__(self) -> None:
        _positive(self.name, "device_cost_usd", self.device_cost_usd)
        _positive(self.name, "device_gb", self.device_gb)
        _positive(self.name, "device_iops", self.device_iops)

    @property
    def usd_per_gb(self) -> Decimal:
        return to_decimal(self.device_cost_usd) / to_decimal(self.device_gb)

    @property
    def usd_per_iops(self) -> Decimal:
        return to_decimal(self.device_cost_usd) / to_decimal(self.device_iops)

    @property
    def intensity(self) -> float:
        # ($/GB)/($/IOPS) reduces to IOPS/GB of one device; exact for the seed.
        return float(to_decimal(self.device_iops) / to_decimal(self.device_gb))

    def object_cost_float(self, gb: float, iops: float) -> float:
        cost = float(self.device_cost_usd)
        return max(iops * cost / self.device_iops, gb * cost / self.device_gb)

    def object_cost_usd(self, obj: StorageObject) -> Decimal:
        # The object's share of devices, as the seed prices it: no rounding up.
        return max(to_decimal(obj.iops) * self.usd_per_iops, to_decimal(obj.gb) * self.usd_per_gb)

    def devices_float(self, gb: float, iops: float) -> int:
        """Whole devices a pool needs (float path, ulp-tolerant)."""
        if gb <= 0 and iops <= 0:
            return 0
        return max(_ceil_float(gb / self.device_gb), _ceil_float(iops / self.device_iops))

    def pool_cost_float(self, gb: float, iops: float) -> float:
        return self.devices_float(gb, iops) * float(self.device_cost_usd)

    def usage(self, gb: Decimal, iops: Decimal) -> TierUsage:
        devices = 0
        if gb > 0 or iops > 0:
            devices = max(
                _ceil_div(gb, to_decimal(self.device_gb)), _ceil_div(iops, to_decimal(self.device_iops))
            )
        within = self._fits(gb) and (self.max_devices is None or devices <= self.max_devices)
        return TierUsage(
            tier_name=self.name,
            devices=devices,
            cost_usd=devices * to_decimal(self.device_cost_usd),
            gb=devices * to_decimal(self.device_gb),
            iops=devices * to_decimal(self.device_iops),
            demand_gb=gb,
            demand_iops=iops,
            within_limits=within,
        )


@dataclass(frozen=True, kw_only=True)
class LinearTier(Tier):
    """A tier priced linearly: USD per GB and USD per IOPS, no granularity.

    One object and a pool cost the same way: MAX(IOPS x usd_per_iops,
    GB x usd_per_gb) over the summed figures — pooling still pays because the
    max of sums is at most the sum of maxes.
    """

    usd_per_gb_price: Decimal
    usd_per_iops_price: Decimal

    def __post_init__(self) -> None:
        _positive(self.name, "usd_per_gb", self.usd_per_gb_price)
        _positive(self.name, "usd_per_iops", self.usd_per_iops_price)

    @property
    def usd_per_gb(self) -> Decimal:
        return to_decimal(self.usd_per_gb_price)

    @property
    def usd_per_iops(self) -> Decimal:
        return to_decimal(self.usd_per_iops_price)

    def pool_cost_float(self, gb: float, iops: float) -> float:
        return max(iops * float(self.usd_per_iops_price), gb * float(self.usd_per_gb_price))

    def usage(self, gb: Decimal, iops: Decimal) -> TierUsage:
        cost = max(iops * self.usd_per_iops, gb * self.usd_per_gb)
        return TierUsage(self.name, None, cost, gb, iops, gb, iops, self._fits(gb))


