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

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

import numpy as np

from apps.tiering.costmodel._money import to_decimal
from apps.tiering.costmodel.base import CostModelError, Tier
from apps.tiering.costmodel.choice import cost_matrix
from apps.tiering.costmodel.volumes import VolumeTier


@dataclass(frozen=True)
class PoolCharge:
    """One pool on a cloud volume tier: its sums, what its segments pay marginally and the pool's own cost."""

    tier_name: str
    pool: int
    gb: float
    iops: float
    marginal_usd: Decimal
    pool_cost_usd: Decimal

    @property
    def charge_usd(self) -> Decimal:
        """Charged once for the pool on top of its segments' marginal costs (negative: a credit)."""
        return self.pool_cost_usd - self.marginal_usd


def pool_charges(
    tiers: Sequence[Tier], tier_index: np.ndarray, pool: np.ndarray, iops: np.ndarray, gb: np.ndarray
) -> list[PoolCharge]:
    """The charge of every (tier, pool) group of objects on a cloud volume tier, in (tier, pool) order.

    ``tier_index[i]`` is object i's tier in ``tiers`` (-1: none), ``pool[i]``
    an integer naming its pool (e.g. a tablespace's code). Device and linear
    tiers have no such charge and give no entry. Grouping is vectorised; the
    loop runs once per pool (a few hundred tablespaces at most).
    """
    tier_index = np.asarray(tier_index, dtype=np.int64)
    pool = np.asarray(pool, dtype=np.int64)
    iops, gb = np.asarray(iops, dtype=np.float64), np.asarray(gb, dtype=np.float64)
    if not (tier_index.shape == pool.shape == iops.shape == gb.shape):
        raise CostModelError("tier_index, pool, iops and gb must have one length")
    volume_columns = [i for i, tier in enumerate(tiers) if isinstance(tier, VolumeTier)]
    on_volumes = np.isin(tier_index, volume_columns)
    if not on_volumes.any():
        return []
    rows = np.flatnonzero(on_volumes)
    keys, group = np.unique(np.stack([tier_index[rows], pool[rows]], axis=1), axis=0, return_inverse=True)
    group = group.reshape(-1)
    marginal = cost_matrix(tiers, iops[rows], gb[rows], pooled=True)[np.arange(rows.size), tier_index[rows]]
    sums = {name: np.bincount(group, weights=values, minlength=len(keys))
            for name, values in (("gb", gb[rows]), ("iops", iops[rows]), ("marginal", marginal))}
    charges = []
    for k, (column, pool_key) in enumerate(keys.tolist()):
        tier = tiers[column]
        pool_gb, pool_iops = float(sums["gb"][k]), float(sums["iops"][k])
        usage = tier.usage(to_decimal(pool_gb), to_decimal(pool_iops))
        charges.append(PoolCharge(tier.name, pool_key, pool_gb, pool_iops, to_decimal(float(sums["marginal"][k])),
                                  usage.cost_usd))
    return charges
