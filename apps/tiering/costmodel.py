"""The IO-intensity cost model: what an object costs on a storage tier.

Pure: standard library only (no Django, no settings, no clock), so the
recommendation service, the ``whatif`` command and the benchmarks share it.

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
``Decimal`` at the edges; the hot per-object loop runs in float and the totals
of a placement are recomputed in ``Decimal`` so that device counts and totals
are exact. Prices are in whatever period the caller uses (device tiers: a
purchase price; cloud tiers: per month) — do not mix periods in one tier set.
"""

from __future__ import annotations

import functools
import gc
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_CEILING, ROUND_HALF_UP, Decimal
from typing import NamedTuple

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


def choose_tiers(objects: Iterable[StorageObject], tiers: Sequence[Tier]) -> list[ObjectChoice]:
    """Each object's cost on each tier and its cheapest tier (per object, no pooling).

    Ties (within 1e-9 relative) keep ``current_tier`` when it is among the
    tied, else take the tier with the lower $/GB, then the earlier tier.
    Runs in float, one tier column at a time (100k objects x 3 tiers in
    about 0.2 s): costs are exact to the cent only after rounding.
    """
    if not tiers:
        raise CostModelError("no tiers given")
    # The result is 2 x N acyclic tuples; letting the cyclic GC rescan every
    # live object while they are built costs ~40% of the run at 100k objects.
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        return _choose_tiers(list(objects), tiers)
    finally:
        if gc_was_enabled:
            gc.enable()


def _choose_tiers(objects: list[StorageObject], tiers: Sequence[Tier]) -> list[ObjectChoice]:
    iops_list = [obj.iops for obj in objects]
    gb_list = [obj.gb for obj in objects]
    columns = [_cost_column(tier, iops_list, gb_list) for tier in tiers]
    rows = list(zip(*columns))
    # Column-wise C-level passes (map over builtins): a Python loop per object
    # doubles the run time at 100k objects.
    bests = list(map(min, rows))
    indexes = list(map(tuple.index, rows, bests))
    if len(tiers) > 1:
        limits = [best + abs(best) * _TIE_REL + 1e-12 for best in bests]
        near_best = [0] * len(rows)
        for column in columns:
            near_best = [count + (cost <= limit) for count, cost, limit in zip(near_best, column, limits)]
        tied_rows = [row for row, count in enumerate(near_best) if count > 1]
        gb_prices = [float(tier.usd_per_gb) for tier in tiers]
        names = [tier.name for tier in tiers]
        for row in tied_rows:
            indexes[row] = _break_tie(rows[row], bests[row], gb_prices, names, objects[row].current_tier)
    intensities = [tier.intensity for tier in tiers]
    bound = [iops > gb * intensities[index] for iops, gb, index in zip(iops_list, gb_list, indexes)]
    chosen_names = list(map([tier.name for tier in tiers].__getitem__, indexes))
    build = functools.partial(tuple.__new__, ObjectChoice)
    return list(map(build, zip(objects, rows, indexes, chosen_names, bound)))


def _cost_column(tier: Tier, iops_list: list[float], gb_list: list[float]) -> list[float]:
    """One tier's per-object costs; the MAX formula inlined when it applies."""
    prices = _max_formula_prices(tier)
    if prices is None:
        cost_fn = tier.object_cost_float
        return [cost_fn(gb, iops) for iops, gb in zip(iops_list, gb_list)]
    per_iops, per_gb = prices
    return [
        by_iops if (by_iops := iops * per_iops) > (by_gb := gb * per_gb) else by_gb
        for iops, gb in zip(iops_list, gb_list)
    ]


def _break_tie(
    costs: Sequence[float], best: float, gb_prices: Sequence[float], names: Sequence[str], current: str | None
) -> int:
    limit = best + abs(best) * _TIE_REL + 1e-12
    tied = [index for index, cost in enumerate(costs) if cost <= limit]
    for index in tied:
        if names[index] == current:
            return index
    return min(tied, key=lambda index: (gb_prices[index], index))


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
