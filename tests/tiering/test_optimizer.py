"""Pooled placement optimisation."""

from __future__ import annotations

import random
import unittest
from decimal import Decimal

from apps.tiering.costmodel import (
    DeviceTier,
    LinearTier,
    PerformanceLevelTier,
    ProvisionedIopsTier,
    StorageObject,
    place_all_on,
    place_recommended,
)
from apps.tiering.optimizer import InfeasiblePlacementError, optimize_placement
from tests.tiering.example_tiers import FAST, FLASH_80, FLASH_320, OBJECT_A, OBJECT_B, SEED_TIERS


def synthetic(count: int, seed: int) -> list[StorageObject]:
    rng = random.Random(seed)
    objects = []
    for index in range(count):
        gb = rng.lognormvariate(2, 1.2)
        objects.append(StorageObject(f"s{index}", iops=round(gb * 0.05 * rng.paretovariate(1.1), 3), gb=round(gb, 3)))
    return objects


def cloud_tiers() -> tuple:
    gp3 = ProvisionedIopsTier(
        name="gp3", usd_per_gb_price=Decimal("0.08"), usd_per_iops_price=Decimal("0.005"),
        included_iops_per_volume=3000, volume_min_gb=1, volume_max_gb=16384, volume_max_iops=16000, max_iops_per_gb=500,
    )
    balanced = PerformanceLevelTier(
        name="balanced", usd_per_gb_price=Decimal("0.0425"), iops_per_gb=60,
        volume_min_gb=50, volume_max_gb=32768, volume_max_iops=25000,
    )
    linear = LinearTier(name="linear", usd_per_gb_price=Decimal("0.05"), usd_per_iops_price=Decimal("0.01"))
    return gp3, balanced, linear


class OptimizePlacementTests(unittest.TestCase):
    def test_it_finds_the_seed_example_optimum_exactly(self) -> None:
        result = optimize_placement([OBJECT_A, OBJECT_B], (FLASH_320, FAST))
        self.assertEqual(result.placement.total_cost_usd, Decimal(18000))
        self.assertEqual(result.placement.assignment, {"A": "flash", "B": "fast disk"})
        self.assertEqual((result.method, result.lower_bound_usd, result.gap_pct), ("exact", Decimal(18000), 0.0))

    def test_it_beats_the_per_object_choice_by_pooling(self) -> None:
        # X alone is cheapest on flash, but rides free on the disks Y needs anyway.
        hot = StorageObject("X", iops=1000, gb=10)
        big = StorageObject("Y", iops=20, gb=600)
        tiers = (FAST, FLASH_80)
        self.assertEqual(place_recommended([hot, big], tiers).total_cost_usd, Decimal(3600))
        result = optimize_placement([hot, big], tiers)
        self.assertEqual(result.placement.total_cost_usd, Decimal(2400))
        self.assertEqual(result.placement.assignment, {"X": "fast disk", "Y": "fast disk"})

    def test_it_matches_enumeration_when_solving_the_milp(self) -> None:
        objects = synthetic(8, seed=3)
        exact = optimize_placement(objects, SEED_TIERS)
        milp = optimize_placement(objects, SEED_TIERS, exact_max_assignments=0)
        self.assertEqual(exact.method, "exact")
        self.assertEqual(milp.method, "milp")
        self.assertEqual(milp.placement.total_cost_usd, exact.placement.total_cost_usd)
        self.assertLessEqual(milp.lower_bound_usd, exact.placement.total_cost_usd)

    def test_it_never_loses_to_recommended_or_all_on_one_tier(self) -> None:
        objects = synthetic(300, seed=11)
        result = optimize_placement(objects, SEED_TIERS, time_limit_s=20)
        baselines = [place_recommended(objects, SEED_TIERS)]
        baselines += [place_all_on(objects, SEED_TIERS, tier) for tier in SEED_TIERS]
        for baseline in baselines:
            with self.subTest(baseline=baseline.name):
                self.assertLessEqual(result.placement.total_cost_usd, baseline.total_cost_usd)
        self.assertLessEqual(result.lower_bound_usd, result.placement.total_cost_usd)
        self.assertGreaterEqual(result.gap_pct, 0.0)

    def test_it_gives_a_valid_bound_for_cloud_tiers(self) -> None:
        objects = synthetic(7, seed=5)
        tiers = cloud_tiers()
        exact = optimize_placement(objects, tiers)
        milp = optimize_placement(objects, tiers, exact_max_assignments=0)
        self.assertGreaterEqual(milp.placement.total_cost_usd, exact.placement.total_cost_usd)
        self.assertLessEqual(milp.lower_bound_usd, exact.placement.total_cost_usd)

    def test_it_respects_a_device_limit(self) -> None:
        one_flash = DeviceTier(
            name="flash", device_cost_usd=Decimal(9600), device_gb=320, device_iops=30000, max_devices=1
        )
        hot = [StorageObject(f"h{i}", iops=9000, gb=200) for i in range(3)]
        for threshold in (10**6, 0):  # enumeration, then the MILP
            with self.subTest(exact_max_assignments=threshold):
                result = optimize_placement(hot, (one_flash, FAST), exact_max_assignments=threshold)
                self.assertTrue(result.placement.within_limits)
                self.assertEqual(result.placement.usage_of("flash").devices, 1)

    def test_it_respects_a_gb_limit(self) -> None:
        capped = DeviceTier(name="flash", device_cost_usd=Decimal(2400), device_gb=80, device_iops=30000, max_gb=100)
        hot = [StorageObject(f"h{i}", iops=30000, gb=60) for i in range(3)]
        result = optimize_placement(hot, (capped, FAST))
        self.assertLessEqual(result.placement.usage_of("flash").demand_gb, 100)

    def test_it_raises_when_no_placement_fits_the_limits(self) -> None:
        tiny = DeviceTier(name="flash", device_cost_usd=Decimal(2400), device_gb=80, device_iops=30000, max_devices=1)
        objects = [StorageObject("big", iops=1, gb=500)]
        for threshold in (10**6, 0):
            with self.subTest(exact_max_assignments=threshold), self.assertRaises(InfeasiblePlacementError):
                optimize_placement(objects, (tiny,), exact_max_assignments=threshold)

