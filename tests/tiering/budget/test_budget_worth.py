"""apps.tiering.budget.worth through the split: an eviction weighs both moves' one-off costs against what the
replacement earns over the payback horizon, and a segment holding a place keeps it unless beaten by the margin."""

from __future__ import annotations

import unittest
from decimal import Decimal

import numpy as np

from apps.tiering.budget import GB, Capacity, Items, Outcome, TargetTerms, budget_split
from apps.tiering.budget.worth import ranked, spread, spread_worth
from apps.tiering.moves.payback import MovePolicy

#: A set whose moves cost $100 each (a DBA's time) and must repay within 3 months.
DEAR = MovePolicy(dba_cost_usd=Decimal(100), horizon_months=Decimal(3), min_saving_usd_per_month=Decimal(0))
FREE = MovePolicy(dba_cost_usd=Decimal(0), horizon_months=Decimal(3), min_saving_usd_per_month=Decimal(0))


def _items(rows: list[dict], cost: float = 0.0) -> Items:
    """Items of (gb, value a month, on the tier, chosen by the previous run); a move in saves its value plus 1."""
    value = np.array([row["value"] for row in rows], dtype=np.float64)
    on = np.array([row.get("on", False) for row in rows], dtype=bool)
    return Items(
        target=np.zeros(len(rows), dtype=np.int64), segment_id=np.arange(len(rows), dtype=np.int64),
        size_bytes=np.array([int(row.get("gb", 10) * GB) for row in rows], dtype=np.int64), on_tier=on,
        may_move=np.ones(len(rows), dtype=bool), cost_on_tier=np.full(len(rows), 10.0), cost_elsewhere=10.0 + value,
        saving_if_moved=np.where(on, -value, value + 1), move_cost_usd=np.full(len(rows), cost),
        incumbent=np.array([row.get("chosen", False) for row in rows], dtype=bool),
    )


def _split(rows: list[dict], *, policy: MovePolicy = FREE, margin: float = 0.0, gb: float = 10.0):
    cost = float(policy.dba_cost_usd)
    return budget_split(_items(rows, cost), [TargetTerms("t", policy, 0.5, margin=margin)], Capacity(gb=gb))


class EvictionCostTests(unittest.TestCase):
    def test_it_refuses_an_eviction_whose_one_off_costs_exceed_what_the_replacement_earns(self):
        # R earns $50 a month on flash, $150 over 3 months: less than E's $90 lost over them plus the two
        # $100 moves. Worth more per GB than E, R alone would repay its own move ($51 a month x 3 > $100).
        split = _split([{"value": 30, "on": True}, {"value": 50}], policy=DEAR)

        self.assertEqual(split.outcome.tolist(), [Outcome.STAYS, Outcome.OFF])
        self.assertEqual(split.targets[0].evicted, 0)

    def test_it_evicts_when_the_replacement_earns_more_than_the_lost_saving_and_both_moves(self):
        split = _split([{"value": 30, "on": True}, {"value": 200}], policy=DEAR)

        self.assertEqual(split.outcome.tolist(), [Outcome.EVICTED, Outcome.MOVES_IN])
        self.assertAlmostEqual(split.targets[0].one_off_usd, 200.0)  # both moves
        self.assertAlmostEqual(split.targets[0].evicted_one_off_usd, 100.0)

    def test_it_draws_the_line_exactly_where_the_horizon_puts_it(self):
        # E loses $30 x 3 + $100 = $190; R earns value x 3 - $100: above $190 from $96.67 a month.
        for value, outcome in ((96.6, [Outcome.STAYS, Outcome.OFF]), (96.7, [Outcome.EVICTED, Outcome.MOVES_IN])):
            with self.subTest(value=value):
                self.assertEqual(_split([{"value": 30, "on": True}, {"value": value}], policy=DEAR).outcome.tolist(),
                                 outcome)

    def test_it_evicts_the_segments_whose_moves_cost_least_per_gb_when_the_budget_shrinks(self):
        # The same $1/GB on the tier; 20 GB to keep of 30: evicting one 10 GB segment costs one move, the two
        # 5 GB ones two. Without one-off costs the tie goes to the input order, which evicts both small ones.
        rows = [{"gb": 10, "value": 10, "on": True}, {"gb": 10, "value": 10, "on": True},
                {"gb": 5, "value": 5, "on": True}, {"gb": 5, "value": 5, "on": True}]

        stays, evicted = Outcome.STAYS, Outcome.EVICTED
        self.assertEqual(_split(rows, policy=DEAR, gb=20).outcome.tolist(), [stays, evicted, stays, stays])
        self.assertEqual(_split(rows, policy=FREE, gb=20).outcome.tolist(), [stays, stays, evicted, evicted])

    def test_a_horizon_of_0_spreads_nothing_and_ranks_by_value(self):
        policy = MovePolicy(dba_cost_usd=Decimal(0), horizon_months=Decimal(0), min_saving_usd_per_month=Decimal(0))

        split = _split([{"value": 30, "on": True}, {"value": 50}], policy=policy)

        self.assertEqual(split.outcome.tolist(), [Outcome.EVICTED, Outcome.MOVES_IN])
        self.assertEqual(spread(np.array([100.0]), np.array([0.0])).tolist(), [0.0])


class IncumbencyTests(unittest.TestCase):
    # Two segments off the tier worth about as much, room for one.
    def test_a_rerun_on_slightly_different_figures_keeps_the_previous_choice(self):
        first = _split([{"value": 10.0}, {"value": 9.5}], margin=0.25)
        self.assertEqual(first.outcome.tolist(), [Outcome.MOVES_IN, Outcome.OFF])

        # A day later the other one is 5 % better: the first, chosen before, keeps its place.
        again = _split([{"value": 9.5, "chosen": True}, {"value": 10.0}], margin=0.25)
        forgetful = _split([{"value": 9.5}, {"value": 10.0}], margin=0.25)

        self.assertEqual(again.outcome.tolist(), [Outcome.MOVES_IN, Outcome.OFF])
        self.assertEqual(forgetful.outcome.tolist(), [Outcome.OFF, Outcome.MOVES_IN])  # what remembering prevents

    def test_a_challenger_clearly_better_takes_the_place(self):
        split = _split([{"value": 9.5, "chosen": True}, {"value": 13.0}], margin=0.25)

        self.assertEqual(split.outcome.tolist(), [Outcome.OFF, Outcome.MOVES_IN])

    def test_a_segment_on_the_tier_holds_its_place_by_the_margin_too(self):
        split = _split([{"value": 10.0, "on": True}, {"value": 12.0}], margin=0.25)

        self.assertEqual(split.outcome.tolist(), [Outcome.STAYS, Outcome.OFF])

    def test_the_margin_never_pays_for_an_eviction_that_does_not_repay(self):
        # E is on the tier (it was evicted by the previous run, whose plan was not carried out); R was chosen
        # then. Both hold a place, their margins cancel: the money alone decides, both ways.
        for r_value, outcome in ((29.0, [Outcome.STAYS, Outcome.OFF]), (31.0, [Outcome.EVICTED, Outcome.MOVES_IN])):
            with self.subTest(r_value=r_value):
                split = _split([{"value": 30, "on": True}, {"value": r_value, "chosen": True}], margin=0.25)
                self.assertEqual(split.outcome.tolist(), outcome)

    def test_it_ranks_a_place_holder_with_its_margin_and_reports_the_real_worth(self):
        split = _split([{"value": 9.5, "chosen": True}, {"value": 10.0}], margin=0.25)

        # One more GB would earn the challenger's $1/GB a month, without the margin.
        self.assertAlmostEqual(split.marginal_usd_per_gb_month, 1.0)
        self.assertEqual(split.holds.tolist(), [True, False])

    def test_a_remembered_set_is_chosen_again_on_the_same_figures(self):
        # Its own choice remembered, a split gives the same outcome (the greedy's choice is a fixed point).
        rng = np.random.default_rng(11)
        for case in range(100):
            n = int(rng.integers(1, 40))
            rows = [{"gb": float(rng.integers(1, 20)), "value": float(rng.normal(5, 6)), "on": bool(rng.random() < 0.3)}
                    for _ in range(n)]
            gb = float(rng.integers(1, 200))
            first = _split(rows, policy=DEAR, margin=0.25, gb=gb)
            chosen = np.isin(first.outcome, (Outcome.STAYS, Outcome.MOVES_IN))
            again = _split([{**row, "chosen": bool(c)} for row, c in zip(rows, chosen)], policy=DEAR, margin=0.25,
                           gb=gb)
            with self.subTest(case=case):
                self.assertEqual(again.outcome.tolist(), first.outcome.tolist())


class HelperTests(unittest.TestCase):
    def test_it_spreads_the_one_off_cost_over_the_horizon_each_way(self):
        worth = spread_worth(np.array([10.0, 10.0, np.nan]), np.array([False, True, False]), np.array([30.0] * 3),
                             np.array([3.0] * 3))

        self.assertEqual(worth[:2].tolist(), [0.0, 20.0])
        self.assertTrue(np.isnan(worth[2]))  # unknown stays unknown

    def test_it_gives_the_margin_to_place_holders_worth_something_only(self):
        self.assertEqual(ranked(np.array([8.0, 8.0, -2.0, 0.0]), np.array([True, False, True, True]),
                                np.full(4, 0.5)).tolist(), [12.0, 8.0, -2.0, 0.0])
