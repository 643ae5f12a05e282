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

The package, by concern: :mod:`._money` (exact decimals, cents, units and
the monthly figure of a purchase), :mod:`.base` (objects, usage, the Tier
base class), :mod:`.devices` (device and linear tiers), :mod:`.volumes`
(cloud block storage, pooled), :mod:`.choice` (cost matrices, the cheapest
tier, break-evens), :mod:`.pools` (once-per-pool charges of cloud volumes) and :mod:`.placement` (pooled totals of an assignment).
"""

from __future__ import annotations

from apps.tiering.costmodel._money import (
    CENT,
    DEFAULT_AMORTISATION_MONTHS,
    PER_MONTH,
    PURCHASE,
    BillingBasis,
    float_to_cents,
    to_cents,
    to_cents_array,
    to_decimal,
)
from apps.tiering.costmodel.base import CostModelError, StorageObject, Tier, TierUsage
from apps.tiering.costmodel.choice import (
    BreakEven,
    ObjectChoice,
    break_even_intensity,
    break_evens,
    cheapest,
    cheapest_tier,
    choose_tiers,
    cost_matrix,
    iops_bound,
    tiers_by_intensity,
)
from apps.tiering.costmodel.devices import DeviceTier, LinearTier
from apps.tiering.costmodel.placement import (
    Placement,
    io_time_saved_ms_per_s,
    place,
    place_all_on,
    place_recommended,
)
from apps.tiering.costmodel.pools import PoolCharge, pool_charge
from apps.tiering.costmodel.volumes import PerformanceLevelTier, ProvisionedIopsTier, VolumeTier

#: The tier kinds by the names the Tier model (Tier.Kind), the presets and what-if's TIERS.json give them.
TIER_KINDS: dict[str, type[Tier]] = {
    "device": DeviceTier,
    "linear": LinearTier,
    "provisioned_iops": ProvisionedIopsTier,
    "performance_level": PerformanceLevelTier,
}

__all__ = [
    "CENT", "DEFAULT_AMORTISATION_MONTHS", "PER_MONTH", "PURCHASE", "TIER_KINDS", "BillingBasis", "BreakEven", "CostModelError", "DeviceTier", "LinearTier", "ObjectChoice", "PerformanceLevelTier",
    "Placement", "PoolCharge", "ProvisionedIopsTier", "StorageObject", "Tier", "TierUsage", "VolumeTier", "break_even_intensity",
    "break_evens", "cheapest", "cheapest_tier", "choose_tiers", "cost_matrix", "float_to_cents",
    "io_time_saved_ms_per_s", "iops_bound", "place", "place_all_on", "place_recommended", "pool_charge", "tiers_by_intensity",
    "to_cents", "to_cents_array", "to_decimal",
]
