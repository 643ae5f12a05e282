"""Cloud volumes pooled (issue 15, item 8): a segment pays its marginal cost inside a pooled volume; the
volume's minimum size and free IOPS baseline are charged once per pool."""

from __future__ import annotations

import unittest
from decimal import Decimal

import numpy as np

from apps.tiering.costmodel import (
    StorageObject,
    choose_tiers,
    cost_matrix,
    place,
    place_recommended,
    pool_charge,
    to_cents,
    to_decimal,
)
from apps.tiering.presets import preset_tiers

EBS = preset_tiers("aws-ebs")  # st1, gp3, io2
OCI = preset_tiers("oci-block-volume")
# 150 GB of cold partitions: fifteen 10 GB partitions read a few times an hour.
COLD_PARTITIONS = tuple(StorageObject(f"P{month:02d}", iops=0.002, gb=10.0, current_tier="EBS gp3")
                        for month in range(1, 16))


class PooledColdPartitionTests(unittest.TestCase):
    def test_it_prices_the_issue_case_at_12_dollars_on_gp3_and_6_75_pooled_on_st1(self) -> None:
        st1, gp3 = EBS[0], EBS[1]
        on_gp3 = place("gp3", COLD_PARTITIONS, EBS, ["EBS gp3"] * 15)
        on_st1 = place("st1", COLD_PARTITIONS, EBS, ["EBS st1"] * 15)
        self.assertEqual(to_cents(on_gp3.total_cost_usd), Decimal("12.00"))
        self.assertEqual(to_cents(on_st1.total_cost_usd), Decimal("6.75"))
        # Alone, each partition would pay st1's 125 GB minimum ($5.625) and stay on gp3 ($0.80).
        self.assertEqual((st1.name, gp3.name), ("EBS st1", "EBS gp3"))

    def test_it_moves_cold_partitions_to_st1_rather_than_keep_them_on_gp3(self) -> None:
        choices = choose_tiers(COLD_PARTITIONS, EBS)
        self.assertEqual({choice.tier_name for choice in choices}, {"EBS st1"})
        per_object = sum(choice.costs_by_tier(EBS)["EBS st1"] for choice in choices)
        self.assertEqual(per_object, Decimal("6.75"))
        self.assertEqual(to_cents(place_recommended(COLD_PARTITIONS, EBS, choices).total_cost_usd), Decimal("6.75"))

    def test_it_gives_a_marginal_cost_matrix_that_sums_to_the_pooled_total(self) -> None:
        iops = np.array([o.iops for o in COLD_PARTITIONS])
        gb = np.array([o.gb for o in COLD_PARTITIONS])
        pooled = cost_matrix(EBS, iops, gb, pooled=True)
        alone = cost_matrix(EBS, iops, gb)
        self.assertAlmostEqual(pooled[:, 0].sum(), 6.75, places=9)
        self.assertAlmostEqual(alone[:, 0].sum(), 15 * 125 * 0.045, places=9)  # each pays the minimum
        # gp3's 1 GB minimum never binds; pooled, the IOPS are paid (the baseline is the pool's): $0.00015.
        self.assertAlmostEqual(pooled[:, 1].sum() - alone[:, 1].sum(), 15 * 0.002 * 0.005, places=9)


def _charge(tier, iops: list[float], gb: list[float]):
    """One pool of ``tier`` holding these segments, each priced marginally inside it (as the stored costs are)."""
    marginal = cost_matrix([tier], np.array(iops), np.array(gb), pooled=True)[:, 0].sum()
    return pool_charge(tier, gb=to_decimal(sum(gb)), iops=to_decimal(sum(iops)), marginal_usd=to_decimal(marginal))


class PoolChargeTests(unittest.TestCase):
    def test_it_charges_st1_s_minimum_size_once_per_pool(self) -> None:
        # Two 10 GB partitions: 20 GB marginal ($0.90), the pool is billed 125 GB ($5.625).
        charge = _charge(EBS[0], [0.0, 0.0], [10.0, 10.0])
        self.assertEqual((charge.tier_name, to_cents(charge.charge_usd)), ("EBS st1", Decimal("4.73")))
        self.assertEqual(to_cents(charge.pool_cost_usd), Decimal("5.63"))

    def test_it_credits_gp3_s_free_iops_baseline_once_per_pool(self) -> None:
        # 2000 IOPS on 100 GB in one pool: marginal 100 x 0.08 + 2000 x 0.005 = $18; the pool's 3000 free
        # IOPS make it $8: a -$10 charge. Two pools pay their own volume each.
        self.assertEqual(to_cents(_charge(EBS[1], [1000.0, 1000.0], [50.0, 50.0]).charge_usd), Decimal("-10.00"))
        self.assertEqual(to_cents(_charge(EBS[1], [10.0], [10.0]).charge_usd), Decimal("-0.05"))

    def test_it_prices_oci_levels_at_the_seed_formula_per_object_and_the_minimum_once(self) -> None:
        lower = OCI[0]  # $0.0255/GB, 2 IOPS/GB, 50 GB minimum
        pooled = cost_matrix([lower], np.array([10.0, 0.0]), np.array([1.0, 1.0]), pooled=True)[:, 0]
        self.assertEqual([round(float(x), 6) for x in pooled], [0.1275, 0.0255])  # 5 GB billed for 10 IOPS, 1 GB
        self.assertEqual(to_cents(_charge(lower, [10.0, 0.0], [1.0, 1.0]).pool_cost_usd), Decimal("1.28"))  # 50 GB, once
