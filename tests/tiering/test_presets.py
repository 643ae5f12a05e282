"""Tier presets: provenance on every tier, and the seed figures intact."""

from __future__ import annotations

import datetime as dt
import unittest
from decimal import Decimal

from apps.tiering.costmodel import (
    CostModelError,
    DeviceTier,
    PerformanceLevelTier,
    ProvisionedIopsTier,
    StorageObject,
    break_evens,
)
from apps.tiering.presets import PRESETS, preset_tiers


class PresetTests(unittest.TestCase):
    def test_it_builds_every_preset_with_provenance_and_latency(self) -> None:
        for name, entries in PRESETS.items():
            tiers = preset_tiers(name)
            self.assertEqual(len(tiers), len(entries))
            for entry, tier in zip(entries, tiers):
                with self.subTest(preset=name, tier=entry.name):
                    self.assertTrue(entry.price_source)
                    self.assertIsInstance(entry.price_read_on, dt.date)
                    self.assertGreater(tier.read_latency_ms, 0)
                    self.assertGreater(tier.intensity, 0)

    def test_it_keeps_the_seed_2009_figures(self) -> None:
        tiers = preset_tiers("seed-2009")
        self.assertTrue(all(isinstance(tier, DeviceTier) for tier in tiers))
        self.assertEqual([tier.intensity for tier in tiers], [0.1, 1.0, 375.0])
        self.assertEqual(sorted(b.intensity for b in break_evens(tiers)), [0.8, 15.0])
        self.assertEqual(tiers[2].device_cost_usd, Decimal(2400))

    def test_it_orders_on_prem_tiers_from_cheap_capacity_to_cheap_iops(self) -> None:
        tiers = preset_tiers("on-prem-2025")
        intensities = [tier.intensity for tier in tiers]
        self.assertEqual(intensities, sorted(intensities))

    def test_it_models_gp3_with_its_included_baseline(self) -> None:
        gp3 = next(t for t in preset_tiers("aws-ebs") if t.name == "EBS gp3")
        self.assertIsInstance(gp3, ProvisionedIopsTier)
        self.assertEqual(gp3.object_cost_usd(StorageObject("x", iops=3000, gb=100)), Decimal("8.00"))

    def test_it_models_oci_levels_as_iops_per_gb(self) -> None:
        tiers = preset_tiers("oci-block-volume")
        self.assertTrue(all(isinstance(tier, PerformanceLevelTier) for tier in tiers))
        self.assertEqual([tier.intensity for tier in tiers], [2.0, 60.0, 75.0])

    def test_it_rejects_an_unknown_preset(self) -> None:
        with self.assertRaisesRegex(CostModelError, "unknown tier preset"):
            preset_tiers("tape-2030")
