"""Grouped payback (apps.tiering.recommendations.grouping): moves made together are judged together as well as alone."""

from __future__ import annotations

import doctest
from decimal import Decimal

import numpy as np
import pytest

from apps.tiering.costmodel import DeviceTier, ProvisionedIopsTier
from apps.tiering.moves.payback import MovePolicy
from apps.tiering.recommendations import grouping

FLASH, DISK = 7, 3


def test_the_module_examples_hold():
    assert doctest.testmod(grouping).failed == 0


def _partitions(saving_each: float, count: int = 15, **overrides):
    """``count`` partitions of one table (group hash 42), all sent to FLASH, each saving ``saving_each``."""
    arguments = dict(
        candidate=np.ones(count, dtype=bool), cost_tier_id=np.full(count, FLASH),
        partition_group=np.full(count, 42, dtype=np.int64), is_partition=np.ones(count, dtype=bool),
        tablespace_code=np.zeros(count, dtype=np.int64), pooled_now=np.zeros(count, dtype=bool),
        saving_usd_per_month=np.full(count, saving_each), policy=MovePolicy())
    return grouping.group_moves(**{**arguments, **overrides})


def test_fifteen_partitions_each_under_the_minimum_are_worth_moving_together():
    # $0.35 a month each is under the $1 minimum; $5.25 together is not.
    groups = _partitions(0.35)

    assert groups.group.tolist() == [0] * 15
    assert groups.members.tolist() == [15]
    assert groups.saving_usd_per_month.tolist() == pytest.approx([5.25])
    assert groups.worth.tolist() == [True]
    assert groups.moves_with_group.all()


def test_fifteen_partitions_whose_sum_is_under_the_minimum_stay_as_they_are():
    groups = _partitions(0.05)  # $0.75 a month together

    assert groups.members.tolist() == [15]
    assert groups.worth.tolist() == [False]
    assert not groups.moves_with_group.any()


def test_the_dba_cost_is_paid_once_by_the_group():
    # A $50 move alone never repays $2 a month within 3 months; fifteen of them in one window save $30 a month.
    policy = MovePolicy(dba_cost_usd=Decimal(50), horizon_months=Decimal(3))

    assert _partitions(2.0, policy=policy).worth.tolist() == [True]
    assert _partitions(2.0, count=8, policy=policy).worth.tolist() == [False]  # $16 a month: 50 > 48


def test_partitions_going_to_different_tiers_are_different_groups():
    tiers = np.array([FLASH] * 8 + [DISK] * 7)
    groups = _partitions(0.35, cost_tier_id=tiers)

    assert sorted(groups.members.tolist()) == [7, 8]
    assert groups.to_tier_id[groups.group[0]] == FLASH and groups.to_tier_id[groups.group[-1]] == DISK


def test_a_move_alone_is_no_group_and_non_candidates_are_left_out():
    candidate = np.zeros(15, dtype=bool)
    candidate[:2] = True
    groups = _partitions(0.35, candidate=candidate)
    assert groups.group.tolist() == [0, 0] + [-1] * 13

    candidate[1] = False
    assert len(_partitions(0.35, candidate=candidate)) == 0


def test_an_unknown_saving_is_not_judged():
    saving = np.full(15, 0.35)
    saving[0] = np.nan
    groups = _partitions(0.35, saving_usd_per_month=saving)

    assert groups.group[0] == -1 and groups.members.tolist() == [14]


def test_segments_of_a_tablespace_group_only_on_a_tier_billed_per_tablespace():
    # Three tables of one tablespace: grouped when their tier is a cloud volume, not on owned devices.
    common = dict(candidate=np.ones(3, dtype=bool), cost_tier_id=np.full(3, DISK),
                  partition_group=np.zeros(3, dtype=np.int64), is_partition=np.zeros(3, dtype=bool),
                  tablespace_code=np.array([9, 9, 9]), saving_usd_per_month=np.full(3, 0.4), policy=MovePolicy())

    assert len(grouping.group_moves(pooled_now=np.zeros(3, dtype=bool), **common)) == 0
    pooled = grouping.group_moves(pooled_now=np.ones(3, dtype=bool), **common)
    assert (pooled.kind.tolist(), pooled.members.tolist(), pooled.worth.tolist()) == ([grouping.TABLESPACE], [3],
                                                                                     [True])


def test_a_tablespace_group_s_saving_includes_the_volume_it_frees():
    # Two 10 GB tables alone in an st1 tablespace (billed at least 125 GB) move to gp3: each saves cents a month
    # marginally, and together they free the st1 volume's minimum ($4.73 a month).
    st1 = ProvisionedIopsTier(name="st1", usd_per_gb_price=Decimal("0.045"), included_iops_per_volume=500,
                              volume_min_gb=125, volume_max_iops=500)
    gp3 = ProvisionedIopsTier(name="gp3", usd_per_gb_price=Decimal("0.04"), usd_per_iops_price=Decimal("0.005"),
                              included_iops_per_volume=3000)
    tiers = [st1, gp3]
    gb, iops = np.array([10.0, 10.0]), np.zeros(2)

    def volume_change(group, count):
        return grouping.volume_charge_changes(tiers, group=group, count=count, now_index=np.array([0, 0]),
                                              to_index=np.array([1, 1]), pool=np.array([5, 5]), iops=iops, gb=gb,
                                              marginal_now=gb * 0.045, marginal_to=gb * 0.04)

    groups = grouping.group_moves(
        candidate=np.ones(2, dtype=bool), cost_tier_id=np.array([DISK, DISK]), partition_group=np.zeros(2, np.int64),
        is_partition=np.zeros(2, dtype=bool), tablespace_code=np.array([5, 5]), pooled_now=np.ones(2, dtype=bool),
        saving_usd_per_month=np.array([0.05, 0.05]), policy=MovePolicy(), volume_change=volume_change)

    assert groups.volume_usd_per_month.tolist() == pytest.approx([125 * 0.045 - 20 * 0.045])
    assert groups.saving_usd_per_month.tolist() == pytest.approx([0.1 + 4.725])
    assert groups.worth.tolist() == [True]


def test_a_volume_left_with_other_segments_keeps_its_charge():
    st1 = ProvisionedIopsTier(name="st1", usd_per_gb_price=Decimal("0.045"), included_iops_per_volume=500,
                              volume_min_gb=125, volume_max_iops=500)
    disk = DeviceTier(name="disk", device_cost_usd=Decimal(600), device_gb=300, device_iops=300)
    # Two 10 GB segments leave an st1 tablespace that keeps a 200 GB one: its 220 GB become 200, over the minimum.
    gb = np.array([10.0, 10.0, 200.0])
    change = grouping.volume_charge_changes([st1, disk], group=np.array([0, 0, -1]), count=1,
                                            now_index=np.array([0, 0, 0]), to_index=np.array([1, 1, 0]),
                                            pool=np.array([5, 5, 5]), iops=np.zeros(3), gb=gb,
                                            marginal_now=gb * 0.045, marginal_to=gb * 2)
    assert change.tolist() == pytest.approx([0.0])


def test_a_tablespace_left_under_its_volume_s_minimum_costs_its_group_the_difference():
    st1 = ProvisionedIopsTier(name="st1", usd_per_gb_price=Decimal("0.045"), included_iops_per_volume=500,
                              volume_min_gb=125, volume_max_iops=500)
    disk = DeviceTier(name="disk", device_cost_usd=Decimal(600), device_gb=300, device_iops=300)
    # 100 GB leave a 200 GB st1 tablespace: the 100 GB that stay are billed 125 GB, $1.125 more than marginally.
    gb = np.array([100.0, 100.0])
    change = grouping.volume_charge_changes([st1, disk], group=np.array([0, -1]), count=1,
                                            now_index=np.array([0, 0]), to_index=np.array([1, 0]),
                                            pool=np.array([5, 5]), iops=np.zeros(2), gb=gb,
                                            marginal_now=gb * 0.045, marginal_to=gb * 2)
    assert change.tolist() == pytest.approx([-25 * 0.045])


def test_a_group_in_words():
    assert grouping.label(kind=grouping.PARTITIONS, name="SOE.ORDERS", tier="FLASH", members=15,
                          saving_usd_per_month=5.25, worth=True) == \
        "SOE.ORDERS partitions → FLASH (15 moves, $5.25/month together)"
