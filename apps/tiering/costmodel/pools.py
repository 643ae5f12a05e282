"""Once-per-pool charges of cloud volume tiers: the minimum size and the free IOPS baseline.

A segment on a cloud tier is priced at its marginal cost inside a pool
(``cost_matrix(..., pooled=True)``); a pool (a tablespace's volumes, or all
of one tier's objects in a placement) then costs :meth:`Tier.usage` of its
summed GB and IOPS. The difference, charged once per pool, is the pool's
charge: positive where the pool is smaller than the volume minimum (st1's
125 GB), negative where the volume's free IOPS baseline (gp3's 3000)
covers IOPS the segments were priced for.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from apps.tiering.costmodel.volumes import VolumeTier


@dataclass(frozen=True)
class PoolCharge:
    """One pool on a cloud volume tier: its sums, what its segments pay marginally and the pool's own cost."""

    tier_name: str
    gb: Decimal
    iops: Decimal
    marginal_usd: Decimal
    pool_cost_usd: Decimal

    @property
    def charge_usd(self) -> Decimal:
        """Charged once for the pool on top of its segments' marginal costs (negative: a credit)."""
        return self.pool_cost_usd - self.marginal_usd


def pool_charge(tier: VolumeTier, *, gb: Decimal, iops: Decimal, marginal_usd: Decimal) -> PoolCharge:
    """A pool of ``tier``'s volumes holding ``gb`` and serving ``iops`` (its segments' sums), whose segments were
    priced ``marginal_usd`` together inside it (``cost_matrix(..., pooled=True)``): what the pool costs as one
    volume (:meth:`VolumeTier.usage`, its minimum size and free IOPS baseline counted once) against that."""
    return PoolCharge(tier.name, gb, iops, marginal_usd, tier.usage(gb, iops).cost_usd)
