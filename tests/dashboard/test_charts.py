"""Pure reshaping of selector rows into chart payloads (no database)."""

from __future__ import annotations

import datetime as dt
import doctest
import random
from decimal import Decimal
from unittest import TestCase

from apps.dashboard import charts, formatting
from apps.dashboard.rows import FlashSample, ResidencyRow, ResidencySample, SegmentPoints, SegmentSample, TierCost

T0 = dt.datetime(2026, 11, 14, 3, 0, tzinfo=dt.timezone.utc)


def point(sid: int, size_gb: float | None, iops: float, tier: str = "flash") -> tuple:
    return sid, size_gb, iops, tier


def points(*rows: tuple) -> SegmentPoints:
    return SegmentPoints.of(list(rows))


def labels(ids: list[int]) -> dict[int, str]:
    return {i: f"S.{i}" for i in ids}


class DoctestTests(TestCase):
    def test_it_passes_the_docstring_examples(self):
        for module in (charts, formatting):
            result = doctest.testmod(module)
            self.assertGreater(result.attempted, 0)
            self.assertEqual(result.failed, 0)


class ScatterTests(TestCase):
    def test_it_groups_points_by_tier_in_tier_order_and_omits_unplottable(self):
        payload = charts.scatter_payload(
            points(point(1, 2.0, 10.0, "flash"), point(2, None, 5.0, "hi-cap"), point(3, 1.0, 0.0, "hi-cap"),
                   point(4, 4.0, 1.0, "hi-cap")),
            labels=labels, tier_order=["hi-cap", "flash"], break_evens=[("hi-cap", "flash", 15.0), ("a", "b", None)],
        )
        self.assertEqual([s["tier"] for s in payload["series"]], ["hi-cap", "flash"])
        self.assertEqual(payload["series"][0]["points"], [{"x": 4.0, "y": 0.25, "name": "S.4", "iops": 1.0, "id": 4}])
        self.assertEqual(payload["omitted"], 2)
        self.assertEqual((payload["plotted"], payload["shown"]), (2, 2))
        self.assertEqual(payload["breakEvens"], [{"label": "hi-cap / flash", "intensity": 15.0}])

    def test_a_large_target_shows_a_bounded_sample_that_keeps_every_tier_and_the_outliers(self):
        rng = random.Random(5)
        crowd = [point(i, rng.uniform(1.0, 2.0), rng.uniform(1.0, 2.0), "hi-cap") for i in range(20_000)]
        outlier = point(99_999, 0.01, 500.0, "flash")  # tiny and hot, alone in its corner

        payload = charts.scatter_payload(points(*crowd, outlier), labels=labels, tier_order=["hi-cap", "flash"],
                                         break_evens=[], max_points=300)

        shown = {s["tier"]: s["points"] for s in payload["series"]}
        self.assertEqual((payload["plotted"], payload["omitted"]), (20_001, 0))
        self.assertLessEqual(payload["shown"], 300)
        self.assertEqual(payload["shown"], sum(len(p) for p in shown.values()))
        self.assertEqual([p["id"] for p in shown["flash"]], [99_999])
        # The crowd is still spread over its whole range, not cut at one edge.
        xs = [p["x"] for p in shown["hi-cap"]]
        self.assertLess(min(xs), 1.1)
        self.assertGreater(max(xs), 1.9)


class SkewTests(TestCase):
    def test_it_orders_by_intensity_and_ends_at_100_percent(self):
        curve = charts.skew_curve(points(point(1, 9.0, 10.0), point(2, 1.0, 90.0), point(3, None, 50.0)))
        self.assertEqual(curve.points, [{"x": 0.0, "y": 0.0}, {"x": 10.0, "y": 90.0}, {"x": 100.0, "y": 100.0}])
        self.assertEqual(curve.segments, 2)
        self.assertEqual(curve.total_iops, 100.0)

    def test_it_calls_out_the_capacity_serving_80_percent_of_io(self):
        curve = charts.skew_curve(points(*(point(i, 1.0, 1.0) for i in range(10))))  # no skew: 80 % IO, 80 % GB
        self.assertEqual({c["io_pct"]: c["capacity_pct"] for c in curve.callouts}[80.0], 80.0)

    def test_it_thins_long_curves(self):
        curve = charts.skew_curve(points(*(point(i, 1.0, float(i + 1)) for i in range(5000))))
        self.assertEqual(len(curve.points), charts.SKEW_MAX_POINTS)
        self.assertEqual(curve.points[-1], {"x": 100.0, "y": 100.0})

    def test_it_has_no_callouts_without_io(self):
        self.assertEqual(charts.skew_curve(points(point(1, 1.0, 0.0))).callouts, [])


class PayloadTests(TestCase):
    def test_it_stacks_tier_costs_now_and_after(self):
        payload = charts.tier_cost_payload([TierCost("a", Decimal("3"), Decimal("1")), TierCost("b", Decimal("0"), Decimal("0.5"))])
        self.assertEqual(payload["series"], [{"tier": "a", "values": [3.0, 1.0]}, {"tier": "b", "values": [0.0, 0.5]}])
        self.assertEqual(payload["totals"], [3.0, 1.5])

    def test_it_converts_residency_blocks_to_mb(self):
        payload = charts.residency_payload([ResidencyRow(1, "S.1", 128, 256)], block_size_bytes=8192)
        self.assertEqual((payload["flashMb"], payload["cacheMb"]), ([1.0], [2.0]))
        series = charts.residency_series_payload([ResidencySample(T0, 128, 0)], block_size_bytes=8192)
        self.assertEqual(series["labels"], ["11-14 03:00"])

    def test_it_computes_flash_ratios_per_snapshot_and_overall(self):
        samples = [FlashSample(T0, 3600.0, 360, 720, 36), FlashSample(T0, 3600.0, None, 100, None),
                   FlashSample(T0, 3600.0, 0, 0, 0)]
        payload = charts.flash_series_payload(samples)
        self.assertEqual(payload["hitRatioPct"], [50.0, None, None])
        self.assertEqual(payload["hitsPerS"], [0.1, None, 0.0])
        self.assertEqual(charts.flash_hit_ratio(samples), 0.5)
        self.assertIsNone(charts.flash_hit_ratio([FlashSample(T0, 3600.0, None, 100, None)]))

    def test_it_uses_allocated_space_when_collected_else_current_size(self):
        measured = [SegmentSample(T0, 3600.0, 1, 2, 1024**3), SegmentSample(T0, 3600.0, 1, 2, None)]
        self.assertEqual(charts.segment_size_payload(measured, current_size_bytes=5)["sizeGb"], [1.0, None])
        unmeasured = [SegmentSample(T0, 3600.0, 1, 2, None)]
        payload = charts.segment_size_payload(unmeasured, current_size_bytes=2 * 1024**3)
        self.assertEqual((payload["sizeGb"], payload["measured"]), ([2.0], False))
        self.assertEqual(charts.segment_io_payload(measured)["writes"], [2, 2])


class FormattingTests(TestCase):
    def test_it_formats_with_units(self):
        self.assertEqual(formatting.fmt_gb(None), "size unknown")
        self.assertEqual(formatting.fmt_gb(0.5), "512 MB")
        self.assertEqual(formatting.fmt_gb(2048), "2.00 TB")
        self.assertEqual(formatting.fmt_iops(542.49), "542 IOPS")
        self.assertEqual(formatting.fmt_intensity(0.0521), "0.0521 IO/s per GB")
        self.assertEqual(formatting.fmt_pct(0.694), "69.4%")
        self.assertEqual(formatting.fmt_price(Decimal("2.5")), "$2.50")


class PartitionHeatTests(TestCase):
    def test_it_ages_partitions_from_the_hottest_and_keeps_unmeasured_ones_unknown(self) -> None:
        from apps.dashboard.segment.partitions import PartitionHeat

        rows = [PartitionHeat("P1", 1, 0.05, True, "hi-cap disk", "keep", False),
                PartitionHeat("P2", 2, None, False, "fast disk", "keep", False),
                PartitionHeat("P3", 3, 160.0, True, "flash", "move", True),
                PartitionHeat("P4", 4, 0.0, True, "flash", "move", False)]

        payload = charts.partition_heat_payload(rows)

        self.assertEqual(payload["ages"], [2, 1, 0, -1])
        # Not measured is None (a gap), never 0; a measured 0 stays 0.
        self.assertEqual(payload["intensity"], [0.05, None, 160.0, 0.0])
        self.assertEqual(payload["current"], [False, False, True, False])

    def test_without_a_measured_partition_no_age_is_given(self) -> None:
        from apps.dashboard.segment.partitions import PartitionHeat

        payload = charts.partition_heat_payload([PartitionHeat("P1", 1, None, False, None, "keep", True),
                                                 PartitionHeat("P2", 2, None, False, None, "keep", False)])

        self.assertEqual(payload["ages"], [None, None])
