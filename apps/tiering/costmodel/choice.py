"""Each object's cost on each tier and its cheapest tier, over numpy arrays; break-even intensities."""

from __future__ import annotations

import functools
import gc
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from operator import attrgetter
from typing import NamedTuple

import numpy as np

from apps.tiering.costmodel._money import float_to_cents
from apps.tiering.costmodel.base import CostModelError, StorageObject, Tier
from apps.tiering.costmodel.devices import DeviceTier, LinearTier
from apps.tiering.costmodel.volumes import (
    _MARGINAL,
    PerformanceLevelTier,
    ProvisionedIopsTier,
    VolumeTier,
    _performance_level_costs,
    _provisioned_iops_costs,
)

# Two float costs closer than this (relative) are a tie: the seed's break-even
# objects land exactly on the boundary and float noise must not pick a side.
_TIE_REL = 1e-9


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


def _max_formula_prices(tier: Tier) -> tuple[float, float] | None:
    """($/IOPS, $/GB) when one object's cost is exactly MAX(IOPS.a, GB.b)."""
    if isinstance(tier, DeviceTier):
        cost = float(tier.device_cost_usd)
        return cost / tier.device_iops, cost / tier.device_gb
    if isinstance(tier, LinearTier):
        return float(tier.usd_per_iops_price), float(tier.usd_per_gb_price)
    return None


def cost_matrix(tiers: Sequence[Tier], iops: np.ndarray, gb: np.ndarray, *, pooled: bool = False) -> np.ndarray:
    """Each object's cost alone on each tier, float USD, shape (objects, tiers).

    With ``pooled``, the cost inside a pool of the tier instead
    (``tier.marginal_cost_float``): on a cloud volume tier an object then
    pays no minimum volume size and gets no free IOPS baseline of its own;
    :func:`apps.tiering.costmodel.pools.pool_charge` charges those once per
    pool. Device and linear tiers cost the same either way.

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
        if pooled and isinstance(tier, VolumeTier):
            _fill_marginal_column(tier, iops, gb, costs[:, column])
        else:
            _fill_cost_column(tier, iops, gb, empty, costs[:, column])
    return costs


def _fill_marginal_column(tier: VolumeTier, iops: np.ndarray, gb: np.ndarray, out: np.ndarray) -> None:
    # Exact types vectorised; a subclass may price differently and takes its own scalar method.
    fill = _MARGINAL.get(type(tier))
    if fill is not None:
        fill(tier, iops, gb, out)
    else:
        cost_fn = tier.marginal_cost_float
        out[:] = [cost_fn(one_gb, one_iops) for one_iops, one_gb in zip(iops.tolist(), gb.tolist())]


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
    chosen: np.ndarray = np.where(tied_current.any(axis=1), tied_current.argmax(axis=1), by_price)
    return chosen


def iops_bound(tiers: Sequence[Tier], iops: np.ndarray, gb: np.ndarray, index: np.ndarray) -> np.ndarray:
    """Whether IOPS, not GB, set each object's cost on tier ``tiers[index[i]]``.

    True when the object's intensity is above the tier's intensity
    (IOPS > GB x tier intensity), as :attr:`ObjectChoice.iops_bound`.
    """
    intensities = np.array([tier.intensity for tier in tiers], dtype=np.float64)
    bound: np.ndarray = np.asarray(iops, dtype=np.float64) > np.asarray(gb, dtype=np.float64) * intensities[index]
    return bound




def choose_tiers(
    objects: Iterable[StorageObject], tiers: Sequence[Tier], *, pooled: bool = True
) -> list[ObjectChoice]:
    """Each object's cost on each tier and its cheapest tier, object by object.

    The cost is the object's marginal cost inside a pool of each tier
    (``pooled``, :func:`cost_matrix`), as segments share volumes: 150 GB of
    cold partitions go to st1 at $6.75 a month pooled rather than stay on
    gp3 at $12.00 because each alone would pay st1's 125 GB minimum.
    ``pooled=False`` prices each object alone.

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
        return _choose_tiers(list(objects), tiers, pooled)
    finally:
        if gc_was_enabled:
            gc.enable()


def _choose_tiers(objects: list[StorageObject], tiers: Sequence[Tier], pooled: bool) -> list[ObjectChoice]:
    count = len(objects)
    iops = np.fromiter(map(attrgetter("iops"), objects), np.float64, count)
    gb = np.fromiter(map(attrgetter("gb"), objects), np.float64, count)
    tier_names = np.array([tier.name for tier in tiers], dtype=object)

    def is_current(rows: np.ndarray) -> np.ndarray:
        # Only tied rows need their current tier (mapping every name would cost
        # ~10% of the run); compared by name, as tier names are what objects hold.
        names = map(attrgetter("current_tier"), map(objects.__getitem__, rows.tolist()))
        current: np.ndarray = np.fromiter(names, dtype=object, count=len(rows))[:, None] == tier_names
        return current

    costs = cost_matrix(tiers, iops, gb, pooled=pooled)
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


