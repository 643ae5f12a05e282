"""apps.tiering.moves.payback: a move's duration, redo, one-off cost and payback, and whether it is worth making."""

from __future__ import annotations

import subprocess
import sys
import unittest
from decimal import Decimal

import numpy as np

from apps.tiering.moves import payback
from apps.tiering.moves.payback import DAYS_PER_MONTH, MovePolicy, move_costs

GB = 1024**3


def _costs(size_gb=10.0, read=40.0, write=100.0, saving=30.0, **policy) -> payback.MoveCosts:
    return move_costs(size_bytes=np.array([size_gb * GB]), read_mb_s=np.array([read]), write_mb_s=np.array([write]),
                      saving_usd_per_month=np.array([saving]), policy=MovePolicy(**policy))


class MoveDurationTests(unittest.TestCase):
    def test_it_times_a_move_as_the_read_from_the_current_tier_plus_the_write_to_the_new_one(self):
        costs = _costs(size_gb=10, read=40, write=100)

        # 10240 MB read at 40 MB/s (256 s), then written at 100 MB/s (102.4 s).
        self.assertAlmostEqual(costs.seconds[0], 256 + 102.4)

    def test_it_leaves_the_duration_unknown_when_a_tier_has_no_throughput(self):
        for read, write in ((np.nan, 100.0), (40.0, np.nan), (0.0, 100.0)):
            with self.subTest(read=read, write=write):
                costs = _costs(read=read, write=write)

                self.assertTrue(np.isnan(costs.seconds[0]))  # unknown, never 0
                self.assertEqual(costs.cost_usd[0], 0.0)  # the money does not rest on the duration
                self.assertEqual(costs.payback_days[0], 0.0)

    def test_it_counts_the_redo_of_a_logging_move_as_the_segment_size(self):
        costs = move_costs(size_bytes=np.array([3.0 * GB, np.nan]), read_mb_s=np.array([40.0, 40.0]),
                           write_mb_s=np.array([40.0, 40.0]), saving_usd_per_month=np.array([5.0, 5.0]),
                           policy=MovePolicy())

        self.assertEqual(costs.redo_bytes[0], 3 * GB)
        self.assertTrue(np.isnan(costs.redo_bytes[1]))  # size unknown: redo unknown
        self.assertTrue(np.isnan(costs.seconds[1]))


class MoveMoneyTests(unittest.TestCase):
    def test_it_prices_a_move_at_the_dba_cost_alone_the_copy_io_is_not_charged(self):
        small, large = _costs(size_gb=0.01, dba_cost_usd=Decimal(75)), _costs(size_gb=5000, dba_cost_usd=Decimal(75))

        # Owned devices and the presets' cloud volumes bill no request: 5 TB or 10 MB cost the same.
        self.assertEqual((small.cost_usd[0], large.cost_usd[0]), (75.0, 75.0))
        self.assertGreater(large.seconds[0], 1000 * small.seconds[0])

    def test_it_pays_back_in_days_of_a_365_25_day_year(self):
        costs = _costs(saving=30.0, dba_cost_usd=Decimal(60))

        self.assertEqual(DAYS_PER_MONTH, 30.4375)
        self.assertAlmostEqual(costs.payback_days[0], 2 * 30.4375)

    def test_a_move_that_saves_nothing_never_pays_back(self):
        costs = _costs(saving=0.0, dba_cost_usd=Decimal(10), min_saving_usd_per_month=Decimal(0))

        self.assertTrue(np.isnan(costs.payback_days[0]))
        self.assertFalse(costs.worth[0])


class WorthMovingTests(unittest.TestCase):
    def test_a_move_saving_less_than_the_minimum_is_not_worth_making(self):
        savings = np.array([0.02, 0.99, 1.0, 250.0])

        worth = payback.worth_moving(np.zeros(4), savings, MovePolicy(min_saving_usd_per_month=Decimal(1)))

        self.assertEqual(worth.tolist(), [False, False, True, True])

    def test_a_move_that_pays_back_after_the_horizon_is_not_worth_making(self):
        policy = MovePolicy(dba_cost_usd=Decimal(300), horizon_months=Decimal(3), min_saving_usd_per_month=Decimal(1))
        savings = np.array([99.0, 100.0, 150.0])  # 300 / 100 = exactly the 3 months

        worth = payback.worth_moving(np.full(3, 300.0), savings, policy)

        self.assertEqual(worth.tolist(), [False, True, True])

    def test_a_policy_with_a_negative_term_is_refused_by_name(self):
        with self.assertRaisesRegex(ValueError, "MovePolicy.horizon_months must be >= 0"):
            MovePolicy(horizon_months=Decimal(-1))

    def test_it_weighs_100k_moves_at_once(self):
        rng = np.random.default_rng(16)
        n = 100_000
        args = dict(size_bytes=rng.uniform(0, 50 * GB, n), read_mb_s=rng.choice([40.0, np.nan], n),
                    write_mb_s=np.full(n, 100.0), saving_usd_per_month=rng.uniform(-5, 50, n),
                    policy=MovePolicy(dba_cost_usd=Decimal(20)))

        costs = move_costs(**args)  # its time: bench/bench_pure.py

        self.assertEqual(costs.worth.size, n)


class PurityTests(unittest.TestCase):
    def test_it_imports_without_django(self):
        code = "import sys, apps.tiering.moves.payback; print(any(m.startswith('django') for m in sys.modules))"
        result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)

        self.assertEqual(result.stdout.strip(), "False")
