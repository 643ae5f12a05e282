"""Grouped payback: moves that are made together are judged for payback together as well as alone.

A move is worth making alone when it saves at least its set's minimum a month and
pays back its one-off cost within the horizon (apps.tiering.payback). Some moves
are not made alone but together, by one script in one maintenance window:

* **the partitions of one table (or index) going to one tier**: fifteen old
  partitions of ORDERS each saving $0.35/month are each under a $1/month minimum,
  and together they save $5.25/month for one piece of work;
* **the segments of one tablespace going to one tier, when the tablespace sits on
  a cloud volume billed per tablespace** (the volume tiers of apps.tiering.costmodel:
  a tablespace's volumes are one pool, with a minimum size and a free IOPS
  baseline charged once). Their saving includes the change in the volume
  charges: a tablespace emptied of its segments frees its volume's minimum, and the
  segments moved form a new pool on the new tier, charged its own minimum.

Each such set of at least two moves is a group (:func:`group_moves`): a segment
belongs to the group of its partitioned table first, else to its tablespace's.
A group's members are the moves the seed rules make or would make but for their
payback (the refresh passes them as ``candidate``); its saving is the sum of its
members' savings a month plus the change in volume charges; its one-off cost is
the set's DBA cost per move once (one script, one window: the copy's IO costs $0,
apps.tiering.payback). A group worth moving under the set's terms makes every
member's move (the members' reason: "worth moving with its group"); a group not
worth it changes nothing.

Pure: numpy and the cost model; no Django.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal

import numpy as np

from apps.tiering import payback
from apps.tiering.costmodel import Tier, VolumeTier, pool_charges

#: Group kinds (Groups.kind).
PARTITIONS, TABLESPACE = 1, 2
#: The pool a group's moved segments form on their new tier (apps.tiering.costmodel.pools): a new tablespace.
_NEW_POOL = np.iinfo(np.int64).min


@dataclass(frozen=True)
class Groups:
    """The groups of a refresh: ``group`` per segment (-1: in none); per group its ``kind``, a member's
    position (``first``, to name it), its tier (``to_tier_id``), ``members``, ``saving_usd_per_month`` (the
    volume charges' change included), ``volume_usd_per_month`` (that change) and whether it is ``worth`` moving."""

    group: np.ndarray
    kind: np.ndarray
    first: np.ndarray
    to_tier_id: np.ndarray
    members: np.ndarray
    saving_usd_per_month: np.ndarray
    volume_usd_per_month: np.ndarray
    worth: np.ndarray

    def __len__(self) -> int:
        return int(self.kind.size)

    @property
    def moves_with_group(self) -> np.ndarray:
        """Per segment: in a group worth moving."""
        return (self.group >= 0) & self.worth[np.maximum(self.group, 0)] if len(self) else self.group >= 0


def group_moves(*, candidate: np.ndarray, cost_tier_id: np.ndarray, partition_group: np.ndarray,
                is_partition: np.ndarray, tablespace_code: np.ndarray, pooled_now: np.ndarray,
                saving_usd_per_month: np.ndarray, policy: payback.MovePolicy,
                volume_change: Callable[[np.ndarray], float] | None = None) -> Groups:
    """The groups of the ``candidate`` moves (module docstring), judged under ``policy``.

    ``partition_group``: a partition's table or index (0: none); ``tablespace_code`` its tablespace;
    ``pooled_now``: its current tier bills per tablespace (a cloud volume tier); ``volume_change(members)``
    the change in volume charges a month when a group's members (positions) move (:func:`volume_charge_change`);
    None: no tier of the set is a volume.

    >>> groups = group_moves(candidate=np.ones(3, bool), cost_tier_id=np.array([7, 7, 7]),
    ...                      partition_group=np.array([42, 42, 0]), is_partition=np.array([True, True, False]),
    ...                      tablespace_code=np.zeros(3, np.int64), pooled_now=np.zeros(3, bool),
    ...                      saving_usd_per_month=np.array([0.6, 0.6, 0.6]), policy=payback.MovePolicy())
    >>> groups.group.tolist(), groups.members.tolist(), groups.worth.tolist()
    ([0, 0, -1], [2], [True])
    """
    n = candidate.size
    saving = np.asarray(saving_usd_per_month, dtype=np.float64)
    judged = candidate & np.isfinite(saving)
    by_partition = judged & is_partition & (partition_group != 0)
    by_tablespace = judged & ~by_partition & pooled_now
    kind = np.where(by_partition, PARTITIONS, np.where(by_tablespace, TABLESPACE, 0))
    rows = np.flatnonzero(kind > 0)
    group = np.full(n, -1, dtype=np.int64)
    if not rows.size:
        return _none(group)
    keys = np.stack([kind[rows], np.where(by_partition, partition_group, tablespace_code)[rows],
                     cost_tier_id[rows]], axis=1)
    unique, inverse, counts = np.unique(keys, axis=0, return_inverse=True, return_counts=True)
    inverse = inverse.reshape(-1)
    kept = counts >= 2  # a group of one is the move alone
    number = np.cumsum(kept) - 1
    in_group = kept[inverse]
    group[rows[in_group]] = number[inverse[in_group]]
    g = int(kept.sum())
    if not g:
        return _none(group)
    members_at = np.flatnonzero(group >= 0)
    first = np.full(g, -1, dtype=np.int64)
    first[group[members_at][::-1]] = members_at[::-1]  # the first member of each group, by position
    total = np.bincount(group[members_at], weights=saving[members_at], minlength=g)
    volume = np.zeros(g)
    if volume_change is not None:
        order = np.argsort(group[members_at], kind="stable")
        for k, members in enumerate(np.split(members_at[order], np.cumsum(np.bincount(group[members_at],
                                                                                        minlength=g))[:-1])):
            volume[k] = volume_change(members)
    saving_total = total + volume
    worth = payback.worth_moving(np.full(g, float(policy.dba_cost_usd)), saving_total, policy)
    return Groups(group=group, kind=unique[kept, 0], first=first, to_tier_id=unique[kept, 2],
                  members=counts[kept], saving_usd_per_month=saving_total, volume_usd_per_month=volume,
                  worth=worth)


def _none(group: np.ndarray) -> Groups:
    empty = np.zeros(0, dtype=np.int64)
    return Groups(group, empty, empty, empty, empty, np.zeros(0), np.zeros(0), np.zeros(0, dtype=bool))


def volume_charge_change(tiers: Sequence[Tier], *, now_index: np.ndarray, to_index: np.ndarray, pool: np.ndarray,
                         iops: np.ndarray, gb: np.ndarray, members: np.ndarray) -> float:
    """What moving ``members`` (positions) to their ``to_index`` tiers takes off the volume charges (USD in the
    tiers' unit; negative: it adds): the once-per-pool charges (costmodel.pool_charges) of the pools they leave
    and of the new pool they form, before less after. ``now_index``/``to_index`` index ``tiers`` (-1: another
    set's tier or none: no pool of this set); ``pool`` names a segment's tablespace.

    >>> from decimal import Decimal as D
    >>> from apps.tiering.costmodel import ProvisionedIopsTier
    >>> st1 = ProvisionedIopsTier(name="st1", usd_per_gb_price=D("0.045"), included_iops_per_volume=500,
    ...                           volume_min_gb=125, volume_max_iops=500)
    >>> gp3 = ProvisionedIopsTier(name="gp3", usd_per_gb_price=D("0.08"), usd_per_iops_price=D("0.005"),
    ...                           included_iops_per_volume=3000)
    >>> # Two 10 GB segments, alone in their st1 tablespace, go to gp3: st1's 125 GB minimum is freed.
    >>> round(volume_charge_change([st1, gp3], now_index=np.array([0, 0]), to_index=np.array([1, 1]),
    ...                            pool=np.array([5, 5]), iops=np.zeros(2), gb=np.array([10.0, 10.0]),
    ...                            members=np.array([0, 1])), 3)
    4.725
    """
    volumes = np.array([isinstance(tier, VolumeTier) for tier in tiers] + [False])  # [-1]: no tier
    now_index, to_index = np.asarray(now_index, dtype=np.int64), np.asarray(to_index, dtype=np.int64)
    leaving = members[volumes[now_index[members]]]
    affected = np.zeros(now_index.size, dtype=bool)
    for tier_index, pool_key in set(zip(now_index[leaving].tolist(), pool[leaving].tolist())):
        affected |= (now_index == tier_index) & (pool == pool_key)
    before = np.flatnonzero(affected)
    stays = affected.copy()
    stays[members] = False
    after_rows = np.r_[np.flatnonzero(stays), members]
    after_tier = np.r_[now_index[stays], to_index[members]]
    after_pool = np.r_[pool[stays], np.full(members.size, _NEW_POOL)]
    charge_before = _charges(tiers, now_index[before], pool[before], iops[before], gb[before])
    charge_after = _charges(tiers, after_tier, after_pool, iops[after_rows], gb[after_rows])
    return float(charge_before - charge_after)


def _charges(tiers: Sequence[Tier], tier_index: np.ndarray, pool: np.ndarray, iops: np.ndarray,
             gb: np.ndarray) -> Decimal:
    return sum((charge.charge_usd for charge in pool_charges(tiers, tier_index, pool, iops, gb)), Decimal(0))


def label(*, kind: int, name: str, tier: str, members: int, saving_usd_per_month: float, worth: bool) -> str:
    """A group in words, as the pages and the export show it.

    >>> label(kind=PARTITIONS, name="SOE.ORDERS", tier="FLASH", members=15, saving_usd_per_month=5.25, worth=True)
    'SOE.ORDERS partitions → FLASH (15 moves, $5.25/month together)'
    >>> label(kind=TABLESPACE, name="APP_DATA", tier="gp3", members=3, saving_usd_per_month=-4.5, worth=False)
    'tablespace APP_DATA → gp3 (3 moves, $4.50/month more together, volume charges included; not worth it together)'
    """
    what = f"{name} partitions" if kind == PARTITIONS else f"tablespace {name}"
    saving = saving_usd_per_month
    money = f"${saving:,.2f}/month together" if saving >= 0 else f"${-saving:,.2f}/month more together"
    volume = ", volume charges included" if kind == TABLESPACE else ""
    verdict = "" if worth else "; not worth it together"
    return f"{what} → {tier} ({members} moves, {money}{volume}{verdict})"
