from __future__ import annotations

import math
import subprocess
import sys
import unittest
from decimal import Decimal
from pathlib import Path

from apps.tiering.rules import (
    DEFAULT_THRESHOLDS,
    RulesError,
    advise,
    merge_thresholds,
    partition_skew,
)
from tests.tiering.rule_figures import figures, reason_text

ROOT = Path(__file__).resolve().parents[2]


class CostVerdictTests(unittest.TestCase):
    def test_it_moves_to_the_cheaper_tier_and_quotes_the_figures(self) -> None:
        advice = advise(figures(current_cost=Decimal("1140"), recommended_cost=Decimal("600")))
        self.assertEqual((advice.action, advice.recommended_tier), ("move", "FLASH"))
        self.assertFalse(advice.tier_adjusted)
        self.assertEqual(advice.codes, ("cheaper_tier",))
        text = reason_text(advice, "cheaper_tier")
        self.assertIn("570 IO requests/s at p95 over 2 GB", text)
        self.assertIn("285 IO/s per GB", text)
        self.assertIn("$600.00 there instead of $1,140.00 on FAST_DISK", text)

    def test_it_keeps_a_segment_already_on_its_cheapest_tier(self) -> None:
        advice = advise(figures(recommended_tier="FAST_DISK", recommended_is_flash=False, intensity=5.0))
        self.assertEqual((advice.action, advice.recommended_tier), ("keep", "FAST_DISK"))
        self.assertEqual(advice.codes, ("keep_current",))
        self.assertIn("FAST_DISK is already the cheapest tier", advice.text())

    def test_it_keeps_a_segment_of_unknown_size_where_it_is(self) -> None:
        advice = advise(figures(size_bytes=None, intensity=None))
        self.assertEqual((advice.action, advice.recommended_tier), ("keep", "FAST_DISK"))
        self.assertEqual(advice.cost_recommended_tier, "FLASH")
        self.assertEqual(advice.codes, ("size_unknown",))

    def test_it_warns_when_awr_did_not_capture_every_snapshot(self) -> None:
        advice = advise(figures(below_awr_capture=True))
        self.assertIn("below_awr_capture", advice.codes)
        self.assertEqual(advice.action, "move")
        self.assertIn("lower bound", reason_text(advice, "below_awr_capture"))


class WriteHeavyTests(unittest.TestCase):
    def test_it_sends_a_write_heavy_segment_to_a_flash_tablespace_not_keep(self) -> None:
        advice = advise(
            figures(read_requests=100_000, write_requests=260_000, physical_reads_blocks=100_000,
                    flash_cache_enabled=True, flash_blocks=0, cache_blocks=100)
        )
        self.assertEqual((advice.action, advice.recommended_tier), ("move", "FLASH"))
        self.assertIsNone(advice.flash_cache_hint)
        text = reason_text(advice, "write_heavy")
        self.assertIn("72% of its IO requests are writes (about 412/s at p95)", text)
        self.assertIn("free buffer waits", text)
        self.assertIn("flash tablespace on FLASH rather than rely on FLASH_CACHE KEEP", text)

    def test_it_stays_quiet_about_a_mix_from_too_few_requests(self) -> None:
        advice = advise(figures(read_requests=100, write_requests=800))
        self.assertNotIn("write_heavy", advice.codes)

    def test_it_follows_a_threshold_override(self) -> None:
        heavy = figures(read_requests=100_000, write_requests=260_000)
        self.assertIn("write_heavy", advise(heavy).codes)
        self.assertNotIn("write_heavy", advise(heavy, thresholds={"write_heavy_fraction": 0.8}).codes)
        self.assertEqual(DEFAULT_THRESHOLDS["write_heavy_fraction"], 0.5)


class FullScanTests(unittest.TestCase):
    def test_it_keeps_a_multi_block_scanned_table_off_flash(self) -> None:
        advice = advise(
            figures(physical_reads_blocks=990_000 * 64, physical_reads_direct_blocks=0, table_scans=1200)
        )
        self.assertEqual((advice.action, advice.recommended_tier), ("keep", "FAST_DISK"))
        self.assertTrue(advice.tier_adjusted)
        self.assertEqual(advice.codes, ("cheaper_tier", "full_scan"))
        self.assertTrue(reason_text(advice, "cheaper_tier").startswith("By cost alone, FLASH"))
        text = reason_text(advice, "full_scan")
        self.assertIn("64 blocks per read request", text)
        self.assertIn("1,200 scans", text)
        self.assertIn("stays on FAST_DISK rather than moving to FLASH", text)

    def test_it_flags_direct_path_reads(self) -> None:
        advice = advise(figures(physical_reads_direct_blocks=800_000))
        self.assertIn("80% of blocks read by direct path", reason_text(advice, "full_scan"))
        self.assertEqual(advice.action, "keep")

    def test_it_does_not_take_direct_lob_reads_for_scans(self) -> None:
        advice = advise(figures(object_type="LOBSEGMENT", physical_reads_direct_blocks=1_000_000))
        self.assertNotIn("full_scan", advice.codes)
        self.assertEqual(advice.action, "move")

    def test_it_lets_a_scanned_segment_leave_flash(self) -> None:
        advice = advise(
            figures(physical_reads_blocks=990_000 * 64, current_tier="FLASH", current_is_flash=True,
                    recommended_tier="HICAP", recommended_is_flash=False, intensity=0.05)
        )
        self.assertEqual((advice.action, advice.recommended_tier), ("move", "HICAP"))
        self.assertIn("full_scan", advice.codes)


class UndoAndTempTests(unittest.TestCase):
    def test_it_does_not_move_undo_to_flash_for_cost_alone(self) -> None:
        for kind in ("TYPE2 UNDO", "ROLLBACK"):
            with self.subTest(kind=kind):
                advice = advise(figures(object_type=kind, object_name="_SYSSMU1$", owner="SYS",
                                        write_requests=2_000_000))
                self.assertEqual((advice.action, advice.recommended_tier), ("keep", "FAST_DISK"))
                self.assertEqual(advice.codes, ("cheaper_tier", "undo_redo"))
                self.assertIn("redo", reason_text(advice, "undo_redo"))

    def test_it_lets_undo_move_to_a_cheaper_disk(self) -> None:
        advice = advise(figures(object_type="TYPE2 UNDO", recommended_tier="HICAP",
                                recommended_is_flash=False, intensity=0.05))
        self.assertEqual((advice.action, advice.recommended_tier), ("move", "HICAP"))
        self.assertNotIn("stays on", reason_text(advice, "undo_redo"))

    def test_it_lets_temp_go_to_flash(self) -> None:
        advice = advise(figures(object_type="TEMPORARY", physical_reads_blocks=990_000 * 128,
                                physical_reads_direct_blocks=990_000 * 128, write_requests=900_000))
        self.assertEqual((advice.action, advice.recommended_tier), ("move", "FLASH"))
        self.assertEqual(advice.codes, ("cheaper_tier", "temp_ok"))
        self.assertIn("2.5x faster", reason_text(advice, "temp_ok"))


class PartitionSkewTests(unittest.TestCase):
    def test_it_finds_the_hot_partitions_hottest_first(self) -> None:
        skew = partition_skew({"P1": 0.2, "P2": 0.3, "P3": 0.25, "P4": 40.0, "P5": 9.0, "P6": 3.0})
        assert skew is not None
        self.assertEqual(skew.hot_partitions, ("P4", "P5"))
        self.assertEqual(skew.partition_count, 6)
        self.assertAlmostEqual(skew.median_intensity, 1.65)
        self.assertAlmostEqual(skew.ratio, 40 / 1.65)

    def test_it_sees_no_skew_when_partitions_are_alike(self) -> None:
        self.assertIsNone(partition_skew({"P1": 5.0, "P2": 9.0, "P3": 40.0}))

    def test_it_needs_enough_partitions_and_some_heat(self) -> None:
        self.assertIsNone(partition_skew({"P1": 0.01, "P2": 50.0}))
        self.assertIsNone(partition_skew({"P1": 0.0, "P2": 0.0, "P3": 0.09}))

    def test_it_handles_a_zero_median_and_unknown_partitions(self) -> None:
        skew = partition_skew([("P1", 0.0), ("P2", 0.0), ("P3", None), ("P4", 0.0), ("P5", 2.0)])
        assert skew is not None
        self.assertEqual(skew.hot_partitions, ("P5",))
        self.assertEqual(skew.partition_count, 4)
        self.assertTrue(math.isinf(skew.ratio))

    def test_it_follows_the_ratio_threshold(self) -> None:
        parts = {"P1": 1.0, "P2": 1.0, "P3": 5.0}
        self.assertIsNone(partition_skew(parts))
        self.assertIsNotNone(partition_skew(parts, thresholds={"partition_skew_ratio": 4.0}))

    def test_it_tells_a_hot_partition_to_move_alone(self) -> None:
        advice = advise(
            figures(object_name="ORDERS", object_type="TABLE PARTITION", subobject_name="P_2024_06",
                    partition_intensities=(("P_2024_06", 285.0), ("P_2023_01", 0.2),
                                           ("P_2023_02", 0.3), ("P_2023_03", 0.1)))
        )
        self.assertEqual((advice.action, advice.recommended_tier), ("move", "FLASH"))
        self.assertEqual(advice.hot_partitions, ("P_2024_06",))
        text = reason_text(advice, "partition_skew")
        self.assertIn("The 4 partitions of SOE.ORDERS differ widely", text)
        self.assertIn("this one is among the hot ones", text)

    def test_it_tells_a_cold_partition_it_is_cold(self) -> None:
        advice = advise(
            figures(object_name="ORDERS", object_type="TABLE PARTITION", subobject_name="P_2023_01",
                    intensity=0.2, recommended_tier="HICAP", recommended_is_flash=False,
                    partition_intensities=(("P_2024_06", 285.0), ("P_2023_01", 0.2),
                                           ("P_2023_02", 0.3), ("P_2023_03", 0.1)))
        )
        self.assertIn("this one is cold", reason_text(advice, "partition_skew"))
        self.assertEqual(advice.action, "move")

    def test_it_moves_hot_partitions_instead_of_a_skewed_table(self) -> None:
        advice = advise(
            figures(object_name="ORDERS", partition_intensities=(("P3", 90.0), ("P1", 0.1), ("P2", 0.2)))
        )
        self.assertEqual(advice.action, "move_partitions")
        self.assertEqual(advice.recommended_tier, "FAST_DISK")
        self.assertEqual(advice.hot_partitions, ("P3",))
        self.assertIn("move the hot partitions (P3), not the whole table", advice.text())

    def test_it_says_index_for_a_skewed_partitioned_index(self) -> None:
        advice = advise(
            figures(object_name="ORD_DATE_IX", object_type="INDEX",
                    partition_intensities=(("P3", 90.0), ("P1", 0.1), ("P2", 0.2)))
        )
        self.assertEqual(advice.action, "move_partitions")
        self.assertIn("not the whole index", reason_text(advice, "partition_skew"))


class FlashCacheTests(unittest.TestCase):
    def test_it_offers_keep_as_a_cheap_alternative_to_a_move(self) -> None:
        advice = advise(figures(flash_cache_enabled=True, flash_blocks=1000, cache_blocks=200))
        self.assertEqual((advice.action, advice.flash_cache_hint), ("move", "KEEP"))
        for said in ("99% of IO requests are reads", "cheap alternative to moving it to FLASH"):
            self.assertIn(said, reason_text(advice, "flash_cache_keep"))

    def test_it_recommends_keep_when_cost_keeps_a_hot_segment_on_disk(self) -> None:
        advice = advise(
            figures(recommended_tier="FAST_DISK", recommended_is_flash=False, intensity=20.0,
                    flash_cache_enabled=True, optimized_physical_reads=10_000)
        )
        self.assertEqual((advice.action, advice.flash_cache_hint), ("flash_cache_keep", "KEEP"))
        self.assertIn("it served 1% of its reads", reason_text(advice, "flash_cache_keep"))

    def test_it_offers_no_keep_without_a_flash_cache_or_residency_data(self) -> None:
        cases = {
            "disabled": figures(flash_cache_enabled=False, flash_blocks=0),
            "already keep": figures(flash_cache_enabled=True, flash_blocks=0, flash_cache="KEEP"),
            "no residency": figures(flash_cache_enabled=True, read_requests=900, write_requests=0),
            "on flash": figures(flash_cache_enabled=True, flash_blocks=0, current_tier="FLASH",
                                current_is_flash=True),
        }
        for name, case in cases.items():
            with self.subTest(case=name):
                self.assertNotIn("flash_cache_keep", advise(case).codes)

    def test_it_says_when_the_flash_cache_already_serves_a_segment(self) -> None:
        advice = advise(
            figures(flash_cache_enabled=True, flash_blocks=200_000, optimized_physical_reads=700_000)
        )
        self.assertIn("already_resident", advice.codes)
        self.assertNotIn("flash_cache_keep", advice.codes)
        for said in ("76% of its blocks, 1.5 GB, are in it", "it served 71% of its reads"):
            self.assertIn(said, reason_text(advice, "already_resident"))

    def test_it_stops_a_cold_segment_wasting_flash(self) -> None:
        advice = advise(
            figures(recommended_tier="FAST_DISK", recommended_is_flash=False, intensity=0.1,
                    flash_blocks=100_000, flash_cache="KEEP")
        )
        self.assertEqual((advice.action, advice.flash_cache_hint), ("flash_cache_none", "NONE"))
        for said in ("holds 781 MB of the flash cache", "cold (0.1 IO/s per GB) despite its FLASH_CACHE KEEP hint"):
            self.assertIn(said, reason_text(advice, "flash_cache_none"))

    def test_it_stops_a_segment_on_flash_storage_filling_the_flash_cache(self) -> None:
        advice = advise(
            figures(current_tier="FLASH", current_is_flash=True, flash_blocks=100_000)
        )
        self.assertEqual(advice.action, "flash_cache_none")
        self.assertIn("stored on flash (FLASH) already", reason_text(advice, "flash_cache_none"))

    def test_it_stops_write_heavy_and_scanned_segments_wasting_flash(self) -> None:
        heavy = figures(recommended_tier="FAST_DISK", recommended_is_flash=False, intensity=5.0,
                        read_requests=100_000, write_requests=400_000, flash_blocks=100_000)
        self.assertIn("write-heavy", reason_text(advise(heavy), "flash_cache_none"))
        scanned = figures(recommended_tier="FAST_DISK", recommended_is_flash=False, intensity=5.0,
                          physical_reads_blocks=990_000 * 32, flash_blocks=100_000)
        self.assertIn("large scans", reason_text(advise(scanned), "flash_cache_none"))

    def test_it_ignores_small_flash_footprints_and_existing_none(self) -> None:
        cold = {"recommended_tier": "FAST_DISK", "recommended_is_flash": False, "intensity": 0.1}
        self.assertNotIn("flash_cache_none", advise(figures(flash_blocks=100, **cold)).codes)
        self.assertNotIn(
            "flash_cache_none", advise(figures(flash_blocks=100_000, flash_cache="NONE", **cold)).codes
        )


class ValidationTests(unittest.TestCase):
    def test_it_names_the_bad_field_and_the_segment(self) -> None:
        with self.assertRaisesRegex(RulesError, r"SegmentFigures.read_requests .* -1 \(SOE.PRODUCTS\)"):
            figures(read_requests=-1)
        with self.assertRaisesRegex(RulesError, r"SegmentFigures.iops"):
            figures(iops=float("nan"))
        with self.assertRaisesRegex(RulesError, r"flash_cache must be DEFAULT, KEEP, NONE"):
            figures(flash_cache="RECYCLE")
        with self.assertRaisesRegex(RulesError, r"partition_intensities\['P1'\]"):
            figures(partition_intensities=(("P1", -2.0),))

    def test_it_rejects_unknown_or_out_of_range_thresholds(self) -> None:
        with self.assertRaisesRegex(RulesError, "unknown threshold 'write_heavy'"):
            advise(figures(), thresholds={"write_heavy": 0.5})
        with self.assertRaisesRegex(RulesError, "out of range"):
            merge_thresholds({"resident_fraction": 1.5})
        with self.assertRaisesRegex(RulesError, "finite number"):
            merge_thresholds({"min_requests": True})

    def test_it_merges_overrides_over_the_defaults(self) -> None:
        merged = merge_thresholds({"cold_intensity": 0.5})
        self.assertEqual(merged["cold_intensity"], 0.5)
        self.assertEqual(merged["keep_min_intensity"], DEFAULT_THRESHOLDS["keep_min_intensity"])
        self.assertEqual(DEFAULT_THRESHOLDS["cold_intensity"], 0.8)


class PurityTests(unittest.TestCase):
    def test_it_imports_rules_without_django(self) -> None:
        code = (
            "import sys, apps.tiering.rules\n"
            "print(any(m == 'django' or m.startswith('django.') for m in sys.modules))\n"
        )
        result = subprocess.run(
            [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
        )
        self.assertEqual(result.stdout.strip(), "False")
