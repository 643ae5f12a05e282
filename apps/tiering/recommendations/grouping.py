"""Grouped payback: moves that are made together are judged for payback together as well as alone.

A move is worth making alone when it saves at least its set's minimum a month and
pays back its one-off cost within the horizon (apps.tiering.moves.payback). Some moves
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
apps.tiering.moves.payback). A group worth moving under the set's terms makes every
member's move (the members' reason: "worth moving with its group"); a group not
worth it changes nothing.

Pure: numpy and the cost model; no Django.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from apps.tiering.costmodel import Tier, VolumeTier, to_decimal
from apps.tiering.moves import payback

#: Group kinds (Groups.kind).
PARTITIONS, TABLESPACE = 1, 2


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
                volume_change: Callable[[np.ndarray, int], np.ndarray] | None = None) -> Groups:
    """The groups of the ``candidate`` moves (module docstring), judged under ``policy``.

    ``partition_group``: a partition's table or index (0: none); ``tablespace_code`` its tablespace;
    ``pooled_now``: its current tier bills per tablespace (a cloud volume tier); ``volume_change(group, count)``
    the change in volume charges a month of each of ``count`` groups when its members (``group``: each
    segment's group, -1: none) move (:func:`volume_charge_changes`); None: no tier of the set is a volume.

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
    inverse, starts = _runs(kind[rows], np.where(by_partition, partition_group, tablespace_code)[rows],
                            cost_tier_id[rows])
    counts = np.diff(np.r_[starts, rows.size])
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
    volume = volume_change(group, g) if volume_change is not None else np.zeros(g)
    saving_total = total + volume
    worth = payback.worth_moving(np.full(g, float(policy.dba_cost_usd)), saving_total, policy)
    return Groups(group=group, kind=kind[first], first=first, to_tier_id=cost_tier_id[first], members=counts[kept], saving_usd_per_month=saving_total, volume_usd_per_month=volume,
                  worth=worth)


def _runs(*columns: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Rows grouped by equal ``columns`` (cheaper than np.unique(axis=0)): each row's run number, in the order
    of the sorted keys, and where each run starts in that order."""
    order = np.lexsort(columns[::-1])
    change = np.zeros(order.size, dtype=bool)
    change[:1] = True
    for column in columns:
        change[1:] |= column[order][1:] != column[order][:-1]
    starts = np.flatnonzero(change)
    inverse = np.empty(order.size, dtype=np.int64)
    inverse[order] = np.cumsum(change) - 1
    return inverse, starts


def _none(group: np.ndarray) -> Groups:
    empty = np.zeros(0, dtype=np.int64)
    return Groups(group, empty, empty, empty, empty, np.zeros(0), np.zeros(0), np.zeros(0, dtype=bool))


@dataclass(frozen=True)
class Pools:
    """The pools now of a refresh's segments on volume tiers (:func:`pools_now`): per (tier index, pool), how
    many segments, their GB, IOPS and marginal cost; read once, so that each group's
    :func:`volume_charge_change` costs a few pool sums, not a pass over the segments."""

    sums: dict[tuple[int, int], tuple[int, float, float, float]]


def pools_now(tiers: Sequence[Tier], *, now_index: np.ndarray, pool: np.ndarray, iops: np.ndarray, gb: np.ndarray,
              marginal_now: np.ndarray) -> Pools:
    """:class:`Pools` of the segments whose current tier (``now_index`` into ``tiers``) is a volume tier;
    ``marginal_now``: each one's marginal (pooled) cost there, as the cost model priced it."""
    volumes = [i for i, tier in enumerate(tiers) if isinstance(tier, VolumeTier)]
    rows = np.flatnonzero(np.isin(now_index, volumes))
    if not rows.size:
        return Pools({})
    inverse, starts = _runs(now_index[rows], pool[rows])
    first = np.empty(starts.size, dtype=np.int64)
    first[inverse[::-1]] = rows[::-1]
    count = np.bincount(inverse, minlength=starts.size)
    sums = [np.bincount(inverse, weights=np.nan_to_num(values[rows]), minlength=starts.size)
            for values in (gb, iops, marginal_now)]
    return Pools({(t, p): (int(count[k]), float(sums[0][k]), float(sums[1][k]), float(sums[2][k]))
                  for k, (t, p) in enumerate(zip(now_index[first].tolist(), pool[first].tolist()))})


def volume_charge_changes(tiers: Sequence[Tier], *, group: np.ndarray, count: int, now_index: np.ndarray,
                          to_index: np.ndarray, pool: np.ndarray, iops: np.ndarray, gb: np.ndarray,
                          marginal_now: np.ndarray, marginal_to: np.ndarray, pools: Pools | None = None) -> np.ndarray:
    """For each of ``count`` groups (``group``: each segment's, -1: none; a group's members go to one tier), what
    its moves take off the volume charges (USD in the tiers' unit; negative: they add): the once-per-pool charges
    (costmodel.pools: a pool's cost less its segments' marginal costs) of the pools its members leave and of the
    new pool they form on their tier, before less after. ``now_index``/``to_index`` index ``tiers`` (-1: another
    set's tier or none: no pool of this set); ``pool`` names a segment's tablespace; ``marginal_now``/``marginal_to``
    each segment's marginal cost on its current and its new tier; ``pools``: :func:`pools_now` of the same arrays
    (read here when not given). One pass over the members, then a few pool sums per group.

    >>> from decimal import Decimal as D
    >>> from apps.tiering.costmodel import ProvisionedIopsTier
    >>> st1 = ProvisionedIopsTier(name="st1", usd_per_gb_price=D("0.045"), included_iops_per_volume=500,
    ...                           volume_min_gb=125, volume_max_iops=500)
    >>> gp3 = ProvisionedIopsTier(name="gp3", usd_per_gb_price=D("0.08"), usd_per_iops_price=D("0.005"),
    ...                           included_iops_per_volume=3000)
    >>> # Two 10 GB segments, alone in their st1 tablespace, go to gp3: st1's 125 GB minimum is freed.
    >>> volume_charge_changes([st1, gp3], group=np.array([0, 0]), count=1, now_index=np.array([0, 0]),
    ...                       to_index=np.array([1, 1]), pool=np.array([5, 5]), iops=np.zeros(2),
    ...                       gb=np.array([10.0, 10.0]), marginal_now=np.array([0.45, 0.45]),
    ...                       marginal_to=np.array([0.8, 0.8])).round(3).tolist()
    [4.725]
    """
    now_index, to_index = np.asarray(now_index, dtype=np.int64), np.asarray(to_index, dtype=np.int64)
    if pools is None:
        pools = pools_now(tiers, now_index=now_index, pool=pool, iops=iops, gb=gb, marginal_now=marginal_now)
    change = np.zeros(count)
    members = np.flatnonzero(group >= 0)
    if not members.size:
        return change
    values = [np.nan_to_num(v[members]) for v in (gb, iops, marginal_now, marginal_to)]
    # The pools left: per (group, tier now, pool), what its members take out of it.
    inverse, starts = _runs(group[members], now_index[members], pool[members])
    runs = starts.size
    taken = [np.bincount(inverse, weights=v, minlength=runs) for v in values[:3]]
    taken_count = np.bincount(inverse, minlength=runs)
    first = np.empty(runs, dtype=np.int64)
    first[inverse[::-1]] = members[::-1]
    for k, row in enumerate(first.tolist()):
        found = pools.sums.get((int(now_index[row]), int(pool[row])))
        if found is None:  # not on a volume tier of this set: no pool to leave
            continue
        pool_count, pool_gb, pool_iops, marginal = found
        tier = tiers[int(now_index[row])]
        saved = _charge(tier, pool_gb, pool_iops, marginal)
        if pool_count > taken_count[k]:  # the pool keeps segments: it is charged on what stays
            saved -= _charge(tier, pool_gb - taken[0][k], pool_iops - taken[1][k], marginal - taken[2][k])
        change[group[row]] += saved
    # The new pool of each group on its new tier.
    into = [np.bincount(group[members], weights=v, minlength=count) for v in (values[0], values[1], values[3])]
    leader = np.empty(count, dtype=np.int64)
    leader[group[members][::-1]] = members[::-1]
    for k, to in enumerate(to_index[leader].tolist()):
        if to >= 0 and isinstance(tiers[to], VolumeTier):
            change[k] -= _charge(tiers[to], into[0][k], into[1][k], into[2][k])
    return change


def _charge(tier: Tier, gb: float, iops: float, marginal: float) -> float:
    """A pool's charge: what the tier bills for its GB and IOPS, less its segments' marginal costs."""
    usage = tier.usage(to_decimal(max(gb, 0.0)), to_decimal(max(iops, 0.0)))
    return float(usage.cost_usd) - marginal


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
