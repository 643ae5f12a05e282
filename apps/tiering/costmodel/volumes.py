"""Cloud block-storage tiers (EBS gp3/io2/st1 style, OCI performance levels) and their array costs."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import numpy as np

from apps.tiering.costmodel._money import to_decimal
from apps.tiering.costmodel.base import CostModelError, Tier, TierUsage, _ceil_float, _positive


def _volume_count(tier: VolumeTier, gb: float, iops: float) -> int:
    if gb <= 0 and iops <= 0:
        return 0
    by_iops = _ceil_float(iops / tier.volume_max_iops) if tier.volume_max_iops else 1
    return max(1, _ceil_float(gb / tier.volume_max_gb), by_iops)


@dataclass(frozen=True, kw_only=True)
class VolumeTier(Tier):
    """Shared volume limits of the cloud block-storage kinds.

    A pool uses the fewest volumes that hold its GB and IOPS:
    max(1, ceil(GB / volume_max_gb), ceil(IOPS / volume_max_iops)); every
    volume is billed at least ``volume_min_gb``.

    Segments share volumes (a tablespace's datafiles sit on a few volumes),
    so one segment's cost is its *marginal* cost in a pool
    (:meth:`marginal_cost_float`, :func:`_provisioned_iops_marginal`): GB and
    IOPS at the tier's unit prices, with no minimum size and no free
    baseline of its own. Those are charged, or credited, once per pool
    (:func:`apps.tiering.costmodel.pools.pool_charge`).
    """

    usd_per_gb_price: Decimal
    volume_min_gb: float = 1.0
    volume_max_gb: float = 16384.0
    volume_max_iops: float | None = None

    @property
    def usd_per_gb(self) -> Decimal:
        return to_decimal(self.usd_per_gb_price)

    def _billed_gb(self, gb: float, iops: float, volumes: int) -> float:
        return max(gb, volumes * self.volume_min_gb)

    def marginal_cost_float(self, gb: float, iops: float) -> float:
        column = np.empty(1)
        marginal = next(fill for kind, fill in _MARGINAL.items() if isinstance(self, kind))
        marginal(self, np.array([float(iops)]), np.array([float(gb)]), column)
        return float(column[0])


@dataclass(frozen=True, kw_only=True)
class ProvisionedIopsTier(VolumeTier):
    """Cloud block storage priced per GB plus per provisioned IOPS above a baseline.

    AWS EBS style. gp3: every volume includes ``included_iops_per_volume``
    (3000) and IOPS above that cost ``usd_per_iops_price`` each; io2: nothing
    included, every IOPS paid; st1 (HDD): IOPS cannot be bought
    (``usd_per_iops_price=None``), a volume gives its baseline and more IOPS
    need more volumes (each billed at least ``volume_min_gb``).
    ``max_iops_per_gb`` is the provider's IOPS:GB ratio cap (gp3 500, io2
    1000): a small hot object is billed at least IOPS / max_iops_per_gb GB.

    Pool cost, with v = volumes (see :class:`VolumeTier`):
    billed_gb = max(GB, IOPS / max_iops_per_gb, v x volume_min_gb);
    cost = billed_gb x usd_per_gb + max(0, IOPS - v x included) x usd_per_iops.
    The nominal $/IOPS (for tier intensity) is the price above the baseline,
    or for st1-style tiers the GB price of one minimum volume per its IOPS.
    Not modelled: throughput charges and io2's cheaper IOPS bands above 32k.
    """

    usd_per_iops_price: Decimal | None = None
    included_iops_per_volume: float = 0.0
    max_iops_per_gb: float | None = None

    def __post_init__(self) -> None:
        _positive(self.name, "usd_per_gb", self.usd_per_gb_price)
        _positive(self.name, "volume_max_gb", self.volume_max_gb)
        _positive(self.name, "volume_min_gb", self.volume_min_gb)
        if self.usd_per_iops_price is not None:
            _positive(self.name, "usd_per_iops", self.usd_per_iops_price)
        elif not self.volume_max_iops or self.volume_max_iops > self.included_iops_per_volume:
            raise CostModelError(
                f"tier {self.name!r}: without usd_per_iops, volume_max_iops must be set and "
                "not exceed included_iops_per_volume"
            )

    @property
    def usd_per_iops(self) -> Decimal:
        if self.usd_per_iops_price is not None:
            return to_decimal(self.usd_per_iops_price)
        return to_decimal(self.volume_min_gb) * self.usd_per_gb / to_decimal(self.included_iops_per_volume)

    def _billed_gb(self, gb: float, iops: float, volumes: int) -> float:
        floor_gb = iops / self.max_iops_per_gb if self.max_iops_per_gb else 0.0
        return max(gb, floor_gb, volumes * self.volume_min_gb)

    def pool_cost_float(self, gb: float, iops: float) -> float:
        volumes = _volume_count(self, gb, iops)
        if volumes == 0:
            return 0.0
        extra_iops = max(0.0, iops - volumes * self.included_iops_per_volume)
        iops_price = float(self.usd_per_iops_price or 0)
        return self._billed_gb(gb, iops, volumes) * float(self.usd_per_gb_price) + extra_iops * iops_price

    def usage(self, gb: Decimal, iops: Decimal) -> TierUsage:
        volumes = _volume_count(self, float(gb), float(iops))
        if volumes == 0:
            return TierUsage(self.name, 0, Decimal(0), Decimal(0), Decimal(0), gb, iops, True)
        billed = max(gb, volumes * to_decimal(self.volume_min_gb))
        if self.max_iops_per_gb:
            billed = max(billed, iops / to_decimal(self.max_iops_per_gb))
        included = volumes * to_decimal(self.included_iops_per_volume)
        extra = max(Decimal(0), iops - included)
        cost = billed * self.usd_per_gb + extra * to_decimal(self.usd_per_iops_price or 0)
        return TierUsage(self.name, volumes, cost, billed, max(iops, included), gb, iops, self._fits(gb))


@dataclass(frozen=True, kw_only=True)
class PerformanceLevelTier(VolumeTier):
    """Cloud block storage priced per GB at a performance level giving IOPS per GB.

    OCI Block Volume style: a volume of G GB at a level (Lower Cost, Balanced,
    Higher Performance: storage + VPUs per GB) gets ``iops_per_gb`` x G IOPS,
    capped per volume at ``volume_max_iops``. To carry IOPS you buy GB:
    billed GB = max(GB, IOPS / iops_per_gb, volumes x volume_min_gb) and cost =
    billed GB x ``usd_per_gb_price``. Per object this is exactly the seed's
    MAX formula with $/IOPS = usd_per_gb / iops_per_gb, so tier intensity =
    iops_per_gb.
    """

    iops_per_gb: float

    def __post_init__(self) -> None:
        _positive(self.name, "usd_per_gb", self.usd_per_gb_price)
        _positive(self.name, "iops_per_gb", self.iops_per_gb)
        _positive(self.name, "volume_max_gb", self.volume_max_gb)
        _positive(self.name, "volume_min_gb", self.volume_min_gb)

    @property
    def usd_per_iops(self) -> Decimal:
        return self.usd_per_gb / to_decimal(self.iops_per_gb)

    @property
    def intensity(self) -> float:
        return float(self.iops_per_gb)

    def _billed_gb(self, gb: float, iops: float, volumes: int) -> float:
        return max(gb, iops / self.iops_per_gb, volumes * self.volume_min_gb)

    def pool_cost_float(self, gb: float, iops: float) -> float:
        volumes = _volume_count(self, gb, iops)
        if volumes == 0:
            return 0.0
        return self._billed_gb(gb, iops, volumes) * float(self.usd_per_gb_price)

    def usage(self, gb: Decimal, iops: Decimal) -> TierUsage:
        volumes = _volume_count(self, float(gb), float(iops))
        if volumes == 0:
            return TierUsage(self.name, 0, Decimal(0), Decimal(0), Decimal(0), gb, iops, True)
        ipg = to_decimal(self.iops_per_gb)
        billed = max(gb, iops / ipg, volumes * to_decimal(self.volume_min_gb))
        provided_iops = billed * ipg
        if self.volume_max_iops:
            # Each volume tops out at volume_max_iops whatever its size.
            provided_iops = min(provided_iops, volumes * to_decimal(self.volume_max_iops))
        return TierUsage(
            self.name, volumes, billed * self.usd_per_gb, billed, provided_iops, gb, iops, self._fits(gb)
        )



# The volume kinds below repeat pool_cost_float's float operations, in place
# where they can (out=): a fresh temporary per step made them 2.5x slower.


def _provisioned_iops_costs(tier: ProvisionedIopsTier, iops: np.ndarray, gb: np.ndarray, out: np.ndarray) -> None:
    volumes = _volume_counts(tier, iops, gb, spare=out)
    billed = np.multiply(volumes, tier.volume_min_gb)
    np.maximum(billed, gb, out=billed)
    if tier.max_iops_per_gb:
        np.maximum(billed, np.divide(iops, tier.max_iops_per_gb, out=out), out=billed)
    iops_price = float(tier.usd_per_iops_price or 0)
    np.multiply(billed, float(tier.usd_per_gb_price), out=out)
    if iops_price:  # st1-style tiers sell no IOPS: the scalar path adds 0.0
        extra = np.multiply(volumes, tier.included_iops_per_volume, out=volumes)
        np.subtract(iops, extra, out=extra)
        np.maximum(extra, 0.0, out=extra)
        extra *= iops_price
        out += extra


def _performance_level_costs(tier: PerformanceLevelTier, iops: np.ndarray, gb: np.ndarray, out: np.ndarray) -> None:
    volumes = _volume_counts(tier, iops, gb, spare=out)
    billed = np.multiply(volumes, tier.volume_min_gb, out=volumes)
    np.maximum(billed, gb, out=billed)
    np.maximum(billed, np.divide(iops, tier.iops_per_gb, out=out), out=billed)
    np.multiply(billed, float(tier.usd_per_gb_price), out=out)


def _volume_counts(tier: VolumeTier, iops: np.ndarray, gb: np.ndarray, spare: np.ndarray) -> np.ndarray:
    """:func:`_volume_count` per object, as floats, ignoring the no-GB-no-IOPS case.

    max(ceil(a - eps), ceil(b - eps)) is ceil(max(a, b) - eps): one ceil, same
    ulp tolerance as :func:`_ceil_float`. ``spare`` is scratch space.
    """
    quotient: np.ndarray = np.divide(gb, tier.volume_max_gb)
    if tier.volume_max_iops:
        np.maximum(quotient, np.divide(iops, tier.volume_max_iops, out=spare), out=quotient)
    quotient -= 1e-9
    np.ceil(quotient, out=quotient)
    np.maximum(quotient, 1.0, out=quotient)
    return quotient


# Marginal costs inside a pool (see VolumeTier): the same unit prices, no per-volume minimum or baseline.


def _provisioned_iops_marginal(tier: ProvisionedIopsTier, iops: np.ndarray, gb: np.ndarray, out: np.ndarray) -> None:
    """GB (at least IOPS / max_iops_per_gb) x $/GB + IOPS x $/IOPS; st1-style tiers, which sell no
    IOPS, bill IOPS as the GB of the minimum volumes that carry them (volume_min_gb per volume_max_iops)."""
    np.copyto(out, gb)
    if tier.max_iops_per_gb:
        np.maximum(out, iops / tier.max_iops_per_gb, out=out)
    if tier.usd_per_iops_price is None:
        assert tier.volume_max_iops  # ProvisionedIopsTier.__post_init__ requires it without usd_per_iops
        np.maximum(out, iops * (tier.volume_min_gb / tier.volume_max_iops), out=out)
        out *= float(tier.usd_per_gb_price)
        return
    out *= float(tier.usd_per_gb_price)
    out += iops * float(tier.usd_per_iops_price)


def _performance_level_marginal(tier: PerformanceLevelTier, iops: np.ndarray, gb: np.ndarray, out: np.ndarray) -> None:
    """max(GB, IOPS / iops_per_gb) x $/GB: the seed's MAX formula at this level's prices."""
    np.divide(iops, tier.iops_per_gb, out=out)
    np.maximum(out, gb, out=out)
    out *= float(tier.usd_per_gb_price)


# Each takes its own kind of tier (the key): Any, as a dict's value type cannot tie it to its key.
_MARGINAL: dict[type[VolumeTier], Callable[[Any, np.ndarray, np.ndarray, np.ndarray], None]] = {
    ProvisionedIopsTier: _provisioned_iops_marginal, PerformanceLevelTier: _performance_level_marginal}
