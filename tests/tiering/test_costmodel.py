"""The pure cost model: the seed's figures, tier kinds, ties, speed and purity."""

from __future__ import annotations

import random
import subprocess
import sys
import unittest
from decimal import Decimal
from pathlib import Path

from apps.tiering.costmodel import (
    CostModelError,
    DeviceTier,
    LinearTier,
    PerformanceLevelTier,
    ProvisionedIopsTier,
    StorageObject,
    break_even_intensity,
    break_evens,
    cheapest_tier,
    choose_tiers,
    io_time_saved_ms_per_s,
    place,
    place_all_on,
    place_recommended,
    to_cents,
)
from tests.tiering.example_tiers import FAST, FLASH_80, FLASH_320, HI_CAP, OBJECT_A, OBJECT_B, SEED_TIERS

ROOT = Path(__file__).resolve().parents[2]

EXAMPLE_TIERS = (FLASH_320, FAST)


def gp3() -> ProvisionedIopsTier:
    return ProvisionedIopsTier(
        name="gp3",
        usd_per_gb_price=Decimal("0.08"),
        usd_per_iops_price=Decimal("0.005"),
        included_iops_per_volume=3000,
        volume_min_gb=1,
        volume_max_gb=16384,
        volume_max_iops=16000,
        max_iops_per_gb=500,
    )


class TierIntensityTests(unittest.TestCase):
    def test_it_reproduces_the_seed_tier_intensities(self) -> None:
        self.assertEqual([tier.intensity for tier in SEED_TIERS], [0.1, 1.0, 375.0])

    def test_it_derives_prices_per_gb_and_per_iops(self) -> None:
        self.assertEqual((HI_CAP.usd_per_gb, HI_CAP.usd_per_iops), (Decimal("0.25"), Decimal("2.5")))
        self.assertEqual((FLASH_80.usd_per_gb, FLASH_80.usd_per_iops), (Decimal(30), Decimal("0.08")))

    def test_it_reproduces_the_seed_break_evens(self) -> None:
        found = {(b.lower, b.upper): b.intensity for b in break_evens(reversed(SEED_TIERS))}
        self.assertEqual(found, {("hi-cap disk", "fast disk"): 0.8, ("fast disk", "flash"): 15.0})

    def test_it_has_no_break_even_when_one_tier_dominates(self) -> None:
        cheap_both = LinearTier(name="cheap", usd_per_gb_price=Decimal(1), usd_per_iops_price=Decimal("0.5"))
        dear_both = LinearTier(name="dear", usd_per_gb_price=Decimal(3), usd_per_iops_price=Decimal(2))
        self.assertIsNone(break_even_intensity(dear_both, cheap_both))

    def test_it_prices_objects_equally_at_the_break_even(self) -> None:
        on_edge = StorageObject("edge", iops=1500, gb=100)  # intensity 15
        self.assertEqual(FAST.object_cost_usd(on_edge), FLASH_80.object_cost_usd(on_edge))


class ObjectCostTests(unittest.TestCase):
    def test_it_takes_the_max_of_iops_and_capacity_cost(self) -> None:
        self.assertEqual(FLASH_320.object_cost_usd(OBJECT_A), Decimal(9000))  # capacity bound
        self.assertEqual(FAST.object_cost_usd(OBJECT_A), Decimal(20000))  # IOPS bound

    def test_it_picks_the_seed_tiers_for_objects_a_and_b(self) -> None:
        choices = choose_tiers([OBJECT_A, OBJECT_B], EXAMPLE_TIERS)
        self.assertEqual([c.tier_name for c in choices], ["flash", "fast disk"])
        self.assertEqual(
            choices[1].costs_by_tier(EXAMPLE_TIERS), {"flash": Decimal("18000.00"), "fast disk": Decimal("8000.00")}
        )
        self.assertTrue(choices[1].iops_bound)
        self.assertFalse(choices[0].iops_bound)

    def test_it_follows_the_seed_cut_offs(self) -> None:
        cases = {0.05: "hi-cap disk", 0.5: "hi-cap disk", 0.9: "fast disk", 10: "fast disk", 20: "flash", 500: "flash"}
        for intensity, expected in cases.items():
            with self.subTest(intensity=intensity):
                obj = StorageObject("x", iops=intensity * 100, gb=100)
                self.assertEqual(cheapest_tier(obj, SEED_TIERS).tier_name, expected)

    def test_it_keeps_the_current_tier_on_a_tie(self) -> None:
        on_edge = StorageObject("edge", iops=1500, gb=100, current_tier="flash")
        self.assertEqual(cheapest_tier(on_edge, SEED_TIERS).tier_name, "flash")

    def test_it_prefers_the_lower_price_per_gb_on_a_tie_without_current_tier(self) -> None:
        on_edge = StorageObject("edge", iops=1500, gb=100, current_tier="hi-cap disk")
        self.assertEqual(cheapest_tier(on_edge, SEED_TIERS).tier_name, "fast disk")

    def test_it_rejects_zero_gb_and_negative_iops(self) -> None:
        with self.assertRaises(CostModelError):
            StorageObject("x", iops=1, gb=0)
        with self.assertRaises(CostModelError):
            StorageObject("x", iops=-1, gb=1)

    def test_it_rejects_non_positive_device_figures(self) -> None:
        with self.assertRaisesRegex(CostModelError, "device_gb"):
            DeviceTier(name="bad", device_cost_usd=Decimal(1), device_gb=0, device_iops=1)

    def test_it_chooses_for_100k_objects(self) -> None:
        rng = random.Random(7)
        objects = [
            StorageObject(f"o{i}", iops=rng.paretovariate(1.2), gb=rng.lognormvariate(1, 1.5)) for i in range(100_000)
        ]
        choices = choose_tiers(objects, SEED_TIERS)  # its time: bench/bench_pure.py
        self.assertEqual(len(choices), 100_000)


class PlacementTests(unittest.TestCase):
    def test_it_prices_a_on_flash_and_b_on_fast_disk_like_the_seed(self) -> None:
        placement = place_recommended([OBJECT_A, OBJECT_B], EXAMPLE_TIERS)
        flash, fast = placement.usage_of("flash"), placement.usage_of("fast disk")
        self.assertEqual((flash.devices, fast.devices), (1, 14))
        self.assertEqual(placement.total_cost_usd, Decimal(18000))
        self.assertEqual(flash.iops + fast.iops, 34200)
        self.assertEqual(flash.gb + fast.gb, 4520)  # the slide's "4.5 TB"

    def test_it_prices_everything_on_fast_disk_like_the_seed(self) -> None:
        placement = place_all_on([OBJECT_A, OBJECT_B], EXAMPLE_TIERS, FAST)
        usage = placement.usage_of("fast disk")
        self.assertEqual((usage.devices, placement.total_cost_usd, usage.iops, usage.gb), (47, 28200, 14100, 14100))
        self.assertEqual(placement.name, "all on fast disk")

    def test_it_prices_everything_on_flash_like_the_seed(self) -> None:
        placement = place_all_on([OBJECT_A, OBJECT_B], EXAMPLE_TIERS, FLASH_320)
        usage = placement.usage_of("flash")
        self.assertEqual((usage.devices, placement.total_cost_usd, usage.iops, usage.gb), (3, 28800, 90000, 960))

    def test_it_counts_devices_exactly_for_decimal_sizes(self) -> None:
        # 100.1 + 99.9 + 100.0 is 300.00000000000006 in float: still one 300 GB disk.
        objects = [StorageObject("a", 1, 100.1), StorageObject("b", 1, 99.9), StorageObject("c", 1, 100.0)]
        self.assertEqual(place_all_on(objects, (FAST,), FAST).usage_of("fast disk").devices, 1)

    def test_it_rejects_an_unknown_tier_name(self) -> None:
        with self.assertRaisesRegex(CostModelError, "unknown tier"):
            place("p", [OBJECT_A], EXAMPLE_TIERS, ["tape"])

    def test_it_flags_usage_over_a_tier_limit(self) -> None:
        small_flash = DeviceTier(
            name="flash", device_cost_usd=Decimal(9600), device_gb=320, device_iops=30000, max_devices=2
        )
        placement = place_all_on([OBJECT_A, OBJECT_B], (small_flash, FAST), small_flash)
        self.assertFalse(placement.within_limits)

    def test_it_pools_linear_tiers_as_the_max_of_sums(self) -> None:
        linear = LinearTier(name="lin", usd_per_gb_price=Decimal(1), usd_per_iops_price=Decimal(1))
        hot, cold = StorageObject("hot", iops=100, gb=1), StorageObject("cold", iops=1, gb=100)
        placement = place_all_on([hot, cold], (linear,), linear)
        self.assertEqual(placement.total_cost_usd, Decimal(101))  # not 100 + 100
        self.assertIsNone(placement.usage_of("lin").devices)


class ProvisionedIopsTierTests(unittest.TestCase):
    def test_it_includes_the_baseline_iops_of_a_volume(self) -> None:
        self.assertEqual(gp3().object_cost_usd(StorageObject("x", iops=3000, gb=100)), Decimal("8.00"))

    def test_it_charges_iops_above_the_baseline(self) -> None:
        cost = gp3().object_cost_usd(StorageObject("x", iops=5000, gb=100))
        self.assertEqual(to_cents(cost), Decimal("18.00"))  # 100 x 0.08 + 2000 x 0.005

    def test_it_bills_at_least_iops_over_the_ratio_cap(self) -> None:
        cost = gp3().object_cost_usd(StorageObject("x", iops=10000, gb=2))
        self.assertEqual(to_cents(cost), Decimal("36.60"))  # 20 GB billed + 7000 IOPS

    def test_it_adds_volumes_when_iops_exceed_one_volume(self) -> None:
        usage = gp3().usage(Decimal(1000), Decimal(20000))
        self.assertEqual(usage.devices, 2)
        self.assertEqual(to_cents(usage.cost_usd), Decimal("150.00"))  # 80 + (20000 - 6000) x 0.005

    def test_it_buys_volumes_for_iops_when_iops_are_not_for_sale(self) -> None:
        st1 = ProvisionedIopsTier(
            name="st1", usd_per_gb_price=Decimal("0.045"), included_iops_per_volume=500,
            volume_min_gb=125, volume_max_gb=16384, volume_max_iops=500,
        )
        usage = st1.usage(Decimal(10), Decimal(1200))
        self.assertEqual((usage.devices, usage.gb), (3, 375))
        self.assertEqual(st1.usd_per_iops, Decimal("0.01125"))

    def test_it_rejects_unbuyable_iops_above_the_baseline(self) -> None:
        with self.assertRaises(CostModelError):
            ProvisionedIopsTier(
                name="bad", usd_per_gb_price=Decimal(1), included_iops_per_volume=500, volume_max_iops=900
            )


class PerformanceLevelTierTests(unittest.TestCase):
    BALANCED = PerformanceLevelTier(
        name="balanced", usd_per_gb_price=Decimal("0.0425"), iops_per_gb=60,
        volume_min_gb=50, volume_max_gb=32768, volume_max_iops=25000,
    )

    def test_it_bills_the_gb_needed_for_the_iops(self) -> None:
        cost = self.BALANCED.object_cost_usd(StorageObject("x", iops=12000, gb=100))
        self.assertEqual(cost, Decimal("8.5"))  # 200 GB x 0.0425

    def test_it_has_the_iops_per_gb_as_tier_intensity(self) -> None:
        self.assertEqual(self.BALANCED.intensity, 60.0)

    def test_it_caps_provided_iops_per_volume(self) -> None:
        usage = self.BALANCED.usage(Decimal(1000), Decimal(100))
        self.assertEqual((usage.devices, usage.iops), (1, 25000))


class IoTimeTests(unittest.TestCase):
    def test_it_saves_time_only_when_the_tier_is_faster(self) -> None:
        self.assertEqual(io_time_saved_ms_per_s(100.0, 6.0, 0.5), 550.0)
        self.assertEqual(io_time_saved_ms_per_s(100.0, 0.5, 6.0), 0.0)


class PurityTests(unittest.TestCase):
    def test_it_imports_no_django_and_nothing_outside_the_stdlib_but_numpy(self) -> None:
        probe = (
            "import sys; before = set(sys.modules); import apps.tiering.costmodel; "
            "new = {m.split('.')[0] for m in set(sys.modules) - before}; "
            "print(','.join(sorted(m for m in new if m not in sys.stdlib_module_names and m not in ('apps', 'numpy'))))"
        )
        result = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True)
        self.assertEqual(result.stdout.strip(), "")

    def test_it_keeps_django_out_of_every_pure_tiering_module(self) -> None:
        probe = (
            "import sys; import apps.tiering.costmodel, apps.tiering.optimizer, apps.tiering.presets, "
            "apps.tiering.whatif; print([m for m in sys.modules if m == 'django' or m.startswith('django.')])"
        )
        result = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True)
        self.assertEqual(result.stdout.strip(), "[]")
