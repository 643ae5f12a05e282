"""The IO-intensity cost model: what an object costs on a storage tier.

Pure: standard library and numpy only (no Django, no settings, no clock), so
the recommendation service, the ``whatif`` command and the benchmarks share it.

The model is the one of "This is your Database on Flash" (Oracle Development,
2009), slides "Matching IO Intensity to Storage Tier" and "Tier Intensity Cut
Offs":

* object intensity = IOPS / GB;
* tier intensity = ($/GB) / ($/IOPS);
* COST[tier] = MAX(IOPS x $/IOPS[tier], GB x $/GB[tier]) for one object;
* a set of objects on one device tier needs
  max(ceil(sum GB / device GB), ceil(sum IOPS / device IOPS)) devices.

Four tier kinds exist (all frozen dataclasses deriving from :class:`Tier`):
:class:`DeviceTier` (the seed's form), :class:`LinearTier`,
:class:`ProvisionedIopsTier` (AWS EBS gp3/io2/st1 style) and
:class:`PerformanceLevelTier` (OCI Block Volume style). Money is
``Decimal`` at the edges; the per-object costs run in float over numpy arrays
(:func:`cost_matrix`, :func:`cheapest`) and the totals of a placement are
recomputed in ``Decimal`` so that device counts and totals are exact. Prices
are in whatever period the caller uses (device tiers: a purchase price; cloud
tiers: per month) — do not mix periods in one tier set.
"""

from __future__ import annotations

import functools
import gc
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_CEILING, ROUND_HALF_UP, Decimal
from operator import attrgetter
from typing import NamedTuple

import numpy as np

CENT = Decimal("0.01")
# Two float costs closer than this (relative) are a tie: the seed's break-even
# objects land exactly on the boundary and float noise must not pick a side.
_TIE_REL = 1e-9


class CostModelError(ValueError):
    """A tier or object is not usable (non-positive size, missing price...)."""


def to_decimal(number: float | int | Decimal) -> Decimal:
    """Exact decimal of a number as it was written (floats via their repr).

    >>> to_decimal(0.1) + to_decimal(0.2)
    Decimal('0.3')
    """
    if isinstance(number, Decimal):
        return number
    if isinstance(number, int):
        return Decimal(number)
    return Decimal(repr(float(number)))


def to_cents(amount: Decimal) -> Decimal:
    """Round money half-up to the cent."""
    return amount.quantize(CENT, rounding=ROUND_HALF_UP)


def _ceil_div(numerator: Decimal, denominator: Decimal) -> int:
    return int((numerator / denominator).to_integral_value(rounding=ROUND_CEILING))


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
    figures for a pool). ``object_cost_float`` is the cost of one object alone.
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

    def pool_cost_float(self, gb: float, iops: float) -> float:
        raise NotImplementedError

    def usage(self, gb: Decimal, iops: Decimal) -> TierUsage:
        raise NotImplementedError

    def _fits(self, gb: Decimal) -> bool:
        return self.max_gb is None or gb <= to_decimal(self.max_gb)


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
    """

    usd_per_gb_price: Decimal
    volume_min_gb: float = 1.0
    volume_max_gb: float = 16384.0
    volume_max_iops: float | None = None

    def _billed_gb(self, gb: float, iops: float, volumes: int) -> float:
        return max(gb, volumes * self.volume_min_gb)


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
    def usd_per_gb(self) -> Decimal:
        return to_decimal(self.usd_per_gb_price)

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
    def usd_per_gb(self) -> Decimal:
        return to_decimal(self.usd_per_gb_price)

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


@dataclass(frozen=True)
class BreakEven:
    """Object intensity at which two tiers adjacent in intensity cost the same.

    ``lower`` is the tier with the lower tier intensity (cheaper GB),
    ``upper`` the higher (cheaper IOPS). Above ``intensity`` the upper tier
    wins. ``intensity`` is None when one tier is cheaper on both $/GB and
    $/IOPS (it dominates: no crossing).
    """

    lower: str
    upper: str
    intensity: float | None


def break_even_intensity(lower: Tier, upper: Tier) -> float | None:
    """Where MAX(x.$/IOPS, $/GB) of two tiers cross, x = object intensity.

    For a non-dominated pair the cheaper-capacity tier is IOPS bound and the
    cheaper-IOPS tier capacity bound there, so the crossing is
    $/GB[upper] / $/IOPS[lower] — the seed's formula (flash/fast = 15).
    """
    if upper.usd_per_gb <= lower.usd_per_gb or upper.usd_per_iops >= lower.usd_per_iops:
        return None
    return float(upper.usd_per_gb / lower.usd_per_iops)


def tiers_by_intensity(tiers: Iterable[Tier]) -> list[Tier]:
    """Tiers from cheapest capacity (lowest intensity) to cheapest IOPS."""
    return sorted(tiers, key=lambda tier: (tier.intensity, tier.usd_per_gb, tier.name))


def break_evens(tiers: Iterable[Tier]) -> list[BreakEven]:
    """Break-even intensities between tiers adjacent in tier intensity."""
    ordered = tiers_by_intensity(tiers)
    return [
        BreakEven(lower.name, upper.name, break_even_intensity(lower, upper))
        for lower, upper in zip(ordered, ordered[1:])
    ]


class ObjectChoice(NamedTuple):
    """One object's cost on every tier (float USD, tier order) and its cheapest tier.

    A NamedTuple, not a dataclass: 100k of these are built per recommendation
    run and tuple construction is several times cheaper.
    """

    obj: StorageObject
    costs_usd: tuple[float, ...]
    tier_index: int
    tier_name: str
    iops_bound: bool  # on the chosen tier, IOPS (not GB) set the cost

    def costs_by_tier(self, tiers: Sequence[Tier]) -> dict[str, Decimal]:
        """Costs rounded to the cent, keyed by tier name."""
        return {tier.name: float_to_cents(cost) for tier, cost in zip(tiers, self.costs_usd)}


def float_to_cents(cost_usd: float) -> Decimal:
    """A float amount as Decimal cents (half away from zero)."""
    return Decimal(repr(cost_usd)).quantize(CENT, rounding=ROUND_HALF_UP)


def _max_formula_prices(tier: Tier) -> tuple[float, float] | None:
    """($/IOPS, $/GB) when one object's cost is exactly MAX(IOPS.a, GB.b)."""
    if isinstance(tier, DeviceTier):
        cost = float(tier.device_cost_usd)
        return cost / tier.device_iops, cost / tier.device_gb
    if isinstance(tier, LinearTier):
        return float(tier.usd_per_iops_price), float(tier.usd_per_gb_price)
    return None


def cost_matrix(tiers: Sequence[Tier], iops: np.ndarray, gb: np.ndarray) -> np.ndarray:
    """Each object's cost alone on each tier, float USD, shape (objects, tiers).

    Row i is ``tier.object_cost_float(gb[i], iops[i])`` for every tier, to
    float rounding (device and linear tiers multiply by a per-unit price, as
    :func:`choose_tiers` always has; the volume kinds repeat their scalar
    arithmetic operation for operation). The array is Fortran-ordered: one
    tier's column is contiguous, which is how :func:`cheapest` reads it.
    ``gb`` may be 0 here (an object with neither GB nor IOPS costs nothing
    on a volume tier); negative or non-finite figures raise.

    >>> flash = DeviceTier(name="flash", device_cost_usd=Decimal(9600), device_gb=320, device_iops=30000)
    >>> cost_matrix([flash], np.array([10000.0]), np.array([300.0])).tolist()
    [[9000.0]]
    """
    iops = np.asarray(iops, dtype=np.float64)
    gb = np.asarray(gb, dtype=np.float64)
    if iops.ndim != 1 or iops.shape != gb.shape:
        raise CostModelError(f"iops and gb must be 1-d arrays of one length, got {iops.shape} and {gb.shape}")
    if iops.size and not (0 <= iops.min() and iops.max() < math.inf and 0 <= gb.min() and gb.max() < math.inf):
        raise CostModelError("iops and gb must be finite and >= 0")
    costs = np.empty((len(tiers), iops.size)).T
    empty = np.flatnonzero((gb == 0) & (iops == 0)) if iops.size and gb.min() == 0 else None
    for column, tier in enumerate(tiers):
        _fill_cost_column(tier, iops, gb, empty, costs[:, column])
    return costs


def _fill_cost_column(tier: Tier, iops: np.ndarray, gb: np.ndarray, empty: np.ndarray | None, out: np.ndarray) -> None:
    prices = _max_formula_prices(tier)
    if prices is not None:
        np.multiply(iops, prices[0], out=out)
        np.maximum(out, gb * prices[1], out=out)
        return
    # Exact types only: a subclass may price differently, so it takes the scalar path below.
    if type(tier) is ProvisionedIopsTier:
        _provisioned_iops_costs(tier, iops, gb, out)
    elif type(tier) is PerformanceLevelTier:
        _performance_level_costs(tier, iops, gb, out)
    else:
        cost_fn = tier.object_cost_float
        out[:] = [cost_fn(one_gb, one_iops) for one_iops, one_gb in zip(iops.tolist(), gb.tolist())]
        return
    if empty is not None:
        out[empty] = 0.0  # _volume_count's zero volumes


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
    quotient = np.divide(gb, tier.volume_max_gb)
    if tier.volume_max_iops:
        np.maximum(quotient, np.divide(iops, tier.volume_max_iops, out=spare), out=quotient)
    quotient -= 1e-9
    np.ceil(quotient, out=quotient)
    return np.maximum(quotient, 1.0, out=quotient)


def cheapest(costs: np.ndarray, tiers: Sequence[Tier], current: np.ndarray) -> np.ndarray:
    """Index of each row's cheapest tier (intp), with the tie rule of :func:`choose_tiers`.

    ``costs`` is (objects, tiers) as :func:`cost_matrix` returns it;
    ``current[i]`` is the index in ``tiers`` of object i's current tier, or
    -1 when it sits on none of them.

    >>> dear_gb = LinearTier(name="ssd", usd_per_gb_price=Decimal(2), usd_per_iops_price=Decimal(1))
    >>> cheap_gb = LinearTier(name="hdd", usd_per_gb_price=Decimal(1), usd_per_iops_price=Decimal(2))
    >>> cheapest(np.array([[1.0, 1.0], [1.0, 1.0], [3.0, 2.0]]), [dear_gb, cheap_gb], np.array([0, -1, 0])).tolist()
    [0, 1, 1]
    """
    current = np.asarray(current)
    rows = np.shape(costs)[0] if np.ndim(costs) else 0
    if current.shape != (rows,) or not np.issubdtype(current.dtype, np.integer):
        raise CostModelError(f"current must be {rows} integer tier indexes, got {current.dtype} {current.shape}")
    if rows and not (-1 <= current.min() and current.max() < len(tiers)):
        raise CostModelError(f"current tier indexes must be -1 .. {len(tiers) - 1}")

    def is_current(tied: np.ndarray) -> np.ndarray:
        mask = np.zeros((len(tied), len(tiers)), dtype=bool)
        on_one = np.flatnonzero(current[tied] >= 0)
        mask[on_one, current[tied][on_one]] = True
        return mask

    return _cheapest(costs, tiers, is_current)


def _cheapest(costs: np.ndarray, tiers: Sequence[Tier], is_current: Callable[[np.ndarray], np.ndarray]) -> np.ndarray:
    """:func:`cheapest`; ``is_current(rows)`` gives, for the tied rows only, a bool (rows, tiers) current-tier mask."""
    costs = np.asfortranarray(costs, dtype=np.float64)
    if not tiers or costs.ndim != 2 or costs.shape[1] != len(tiers):
        raise CostModelError(f"costs must have one column per tier ({len(tiers)}), got shape {costs.shape}")
    rows, columns = costs.shape
    best = costs.min(axis=1)
    limits = best + np.abs(best) * _TIE_REL + 1e-12
    if np.isnan(limits).any():
        raise CostModelError("costs must not be NaN or -inf")
    # Column passes, not a row-wise argmin (3-10x slower on few columns):
    # count the columns within the tie limit and sum their indexes; where one
    # column alone is within it, that sum is the cheapest column. Adds of
    # 0/1 x column, because a masked np.add is 8x slower on mixed rows.
    small = np.min_scalar_type(columns)
    near_count = np.zeros(rows, small)
    index = np.zeros(rows, small)
    for column in range(columns):
        near = (costs[:, column] <= limits).view(np.uint8)
        near_count += near
        if column:
            index += near * small.type(column)
    index = index.astype(np.intp)
    tied = np.flatnonzero(near_count > 1)
    if tied.size:
        index[tied] = _break_ties(costs[tied], limits[tied], tiers, is_current(tied))
    return index


def _break_ties(costs: np.ndarray, limits: np.ndarray, tiers: Sequence[Tier], is_current: np.ndarray) -> np.ndarray:
    """The first tied current tier if any, else the tied tier of lowest (float $/GB, index)."""
    near = costs <= limits[:, None]
    gb_prices = [float(tier.usd_per_gb) for tier in tiers]
    order = sorted(range(len(tiers)), key=lambda index: (gb_prices[index], index))
    rank = np.empty(len(tiers), np.intp)
    rank[order] = np.arange(len(tiers))
    by_price = np.where(near, rank, len(tiers)).argmin(axis=1)
    tied_current = near & is_current
    return np.where(tied_current.any(axis=1), tied_current.argmax(axis=1), by_price)


def iops_bound(tiers: Sequence[Tier], iops: np.ndarray, gb: np.ndarray, index: np.ndarray) -> np.ndarray:
    """Whether IOPS, not GB, set each object's cost on tier ``tiers[index[i]]``.

    True when the object's intensity is above the tier's intensity
    (IOPS > GB x tier intensity), as :attr:`ObjectChoice.iops_bound`.
    """
    intensities = np.array([tier.intensity for tier in tiers], dtype=np.float64)
    return np.asarray(iops, dtype=np.float64) > np.asarray(gb, dtype=np.float64) * intensities[index]


# Below this many USD a half cent has at most 15 significant digits, which is
# what makes the comparison in to_cents_array agree with the shortest repr.
_CENTS_EXACT_BELOW_USD = 1e11
# From 2**53 on every float is a whole number: rounding to the cent keeps it.
_WHOLE_FROM_USD = 2.0**53


def to_cents_array(costs: np.ndarray) -> np.ndarray:
    """USD amounts rounded half away from zero to the cent, as float64.

    Elementwise ``float(float_to_cents(x))``: the half is judged on the
    amount's shortest repr, so 2.675 (stored as 2.67499999...) gives 2.68.
    For |x| < 1e11 USD that is one vectorised comparison with the float
    nearest the half cent: the repr equals the half cent exactly when the
    float does, and lies on the same side of it otherwise. Larger amounts go
    through :func:`float_to_cents` one by one (from 2**53 on they are whole
    already and come back unchanged, where the default decimal context of
    ``float_to_cents`` would give up past 1e26). NaN and inf pass through.

    >>> to_cents_array(np.array([0.005, 2.675, -2.675, 1.004])).tolist()
    [0.01, 2.68, -2.68, 1.0]
    """
    usd = np.asarray(costs, dtype=np.float64)
    magnitude = np.abs(usd)
    whole_cents = np.floor(magnitude * 100.0)
    cents = whole_cents + (magnitude >= (whole_cents + 0.5) / 100.0)
    rounded = np.empty_like(usd)  # an array even for 0-d input, so the assignment below works
    np.copysign(cents, usd, out=rounded)
    rounded /= 100.0
    large = magnitude >= _CENTS_EXACT_BELOW_USD
    if large.any():
        rounded[large] = [
            amount if abs(amount) >= _WHOLE_FROM_USD else float(float_to_cents(amount))
            for amount in usd[large].tolist()
        ]
    return rounded


def choose_tiers(objects: Iterable[StorageObject], tiers: Sequence[Tier]) -> list[ObjectChoice]:
    """Each object's cost on each tier and its cheapest tier (per object, no pooling).

    Ties (within 1e-9 relative) keep ``current_tier`` when it is among the
    tied, else take the tier with the lower $/GB, then the earlier tier.
    Runs in float over numpy arrays (:func:`cost_matrix`, :func:`cheapest`,
    :func:`iops_bound`): 100k objects x 3 tiers in about 0.1 s, nearly all of
    it reading the objects and building the ObjectChoice tuples (the arrays
    alone take a few ms). Costs are exact to the cent only after rounding.
    """
    if not tiers:
        raise CostModelError("no tiers given")
    # The result is 2 x N acyclic tuples; letting the cyclic GC rescan every
    # live object while they are built costs ~25% of the run at 100k objects.
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        return _choose_tiers(list(objects), tiers)
    finally:
        if gc_was_enabled:
            gc.enable()


def _choose_tiers(objects: list[StorageObject], tiers: Sequence[Tier]) -> list[ObjectChoice]:
    count = len(objects)
    iops = np.fromiter(map(attrgetter("iops"), objects), np.float64, count)
    gb = np.fromiter(map(attrgetter("gb"), objects), np.float64, count)
    tier_names = np.array([tier.name for tier in tiers], dtype=object)

    def is_current(rows: np.ndarray) -> np.ndarray:
        # Only tied rows need their current tier (mapping every name would cost
        # ~10% of the run); compared by name, as tier names are what objects hold.
        names = map(attrgetter("current_tier"), map(objects.__getitem__, rows.tolist()))
        return np.fromiter(names, dtype=object, count=len(rows))[:, None] == tier_names

    costs = cost_matrix(tiers, iops, gb)
    chosen = _cheapest(costs, tiers, is_current)
    bound = iops_bound(tiers, iops, gb, chosen).tolist()
    # Column by column into tuples: ndarray.tolist() on the rows is twice as slow.
    rows = zip(*(costs[:, column].tolist() for column in range(len(tiers))))
    indexes = chosen.tolist()
    chosen_names = map([tier.name for tier in tiers].__getitem__, indexes)
    build = functools.partial(tuple.__new__, ObjectChoice)
    return list(map(build, zip(objects, rows, indexes, chosen_names, bound)))


def cheapest_tier(obj: StorageObject, tiers: Sequence[Tier]) -> ObjectChoice:
    """The cheapest tier for one object (see :func:`choose_tiers` for ties)."""
    return choose_tiers([obj], tiers)[0]


@dataclass(frozen=True)
class Placement:
    """A named assignment of objects to tiers, with each tier's usage and the total.

    ``assignment`` maps object name to tier name; ``usages`` has one entry per
    tier in the order the tiers were given (unused tiers cost 0).
    """

    name: str
    assignment: Mapping[str, str]
    usages: tuple[TierUsage, ...]
    total_cost_usd: Decimal = field(default=Decimal(0))

    @property
    def within_limits(self) -> bool:
        return all(usage.within_limits for usage in self.usages)

    def usage_of(self, tier_name: str) -> TierUsage:
        for usage in self.usages:
            if usage.tier_name == tier_name:
                return usage
        raise KeyError(tier_name)


def place(
    name: str, objects: Sequence[StorageObject], tiers: Sequence[Tier], tier_of: Sequence[str]
) -> Placement:
    """Cost a placement: ``tier_of[i]`` is the tier name of ``objects[i]``.

    Sums per tier are exact decimals of the inputs, so device counts and
    totals are exact (the seed's $18,000 / $28,200 / $28,800).
    """
    index_of = {tier.name: index for index, tier in enumerate(tiers)}
    gb_sums = [Decimal(0)] * len(tiers)
    iops_sums = [Decimal(0)] * len(tiers)
    for obj, tier_name in zip(objects, tier_of, strict=True):
        if tier_name not in index_of:
            raise CostModelError(f"object {obj.name!r}: unknown tier {tier_name!r}")
        index = index_of[tier_name]
        gb_sums[index] += to_decimal(obj.gb)
        iops_sums[index] += to_decimal(obj.iops)
    usages = tuple(tier.usage(gb_sums[i], iops_sums[i]) for i, tier in enumerate(tiers))
    assignment = {obj.name: tier_name for obj, tier_name in zip(objects, tier_of)}
    total = sum((usage.cost_usd for usage in usages), Decimal(0))
    return Placement(name, assignment, usages, total)


def place_all_on(objects: Sequence[StorageObject], tiers: Sequence[Tier], tier: Tier) -> Placement:
    """Everything on one tier, named ``all on <tier name>``."""
    return place(f"all on {tier.name}", objects, tiers, [tier.name] * len(objects))


def place_recommended(
    objects: Sequence[StorageObject], tiers: Sequence[Tier], choices: Sequence[ObjectChoice] | None = None
) -> Placement:
    """Every object on its own cheapest tier, named ``recommended``."""
    chosen = choices if choices is not None else choose_tiers(objects, tiers)
    return place("recommended", objects, tiers, [choice.tier_name for choice in chosen])


def io_time_saved_ms_per_s(read_iops: float, from_latency_ms: float, to_latency_ms: float) -> float:
    """Read time saved per second of wall time by moving reads to a faster tier.

    read requests/s x (current latency - tier latency), never negative: a
    slower tier saves nothing. Current latency comes from tablespace IO stats.

    >>> io_time_saved_ms_per_s(100.0, 6.0, 0.5)
    550.0
    """
    return read_iops * max(0.0, from_latency_ms - to_latency_ms)
