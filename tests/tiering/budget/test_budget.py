"""apps.tiering.budget.split: a fleet budget of one tier split by the greedy on worth per GB."""

from __future__ import annotations

import itertools
import subprocess
import sys
import unittest
from decimal import Decimal
from unittest import mock

import numpy as np

from apps.tiering.budget import BudgetError, Capacity, Items, TargetTerms, budget_split, usd_per_gb_month
from apps.tiering.budget import split as budget
from apps.tiering.budget.outcomes import GB, Outcome
from apps.tiering.moves.payback import MovePolicy

FREE = MovePolicy(dba_cost_usd=Decimal(0), horizon_months=Decimal(3), min_saving_usd_per_month=Decimal(0))


def _items(rows: list[dict]) -> Items:
    """Items from rows of (gb, value) and optional fields; cost on the tier 10, elsewhere 10 + value, a move in
    saving the value plus 1 (its current tier is dearer than its best other one), a move out saving -value."""
    def column(name, default, dtype=None):
        return np.array([row.get(name, default) for row in rows], dtype=dtype)

    value = column("value", 0.0, np.float64)
    on_tier = column("on", False, bool)
    size = np.array([-1 if row.get("gb") is None else int(row["gb"] * GB) for row in rows], dtype=np.int64)
    return Items(
        target=column("target", 0, np.int64), segment_id=np.arange(len(rows), dtype=np.int64), size_bytes=size,
        on_tier=on_tier, may_move=column("may_move", True, bool), cost_on_tier=np.full(len(rows), 10.0),
        cost_elsewhere=10.0 + value,
        saving_if_moved=np.array([row.get("saving", -v if on else v + 1) for row, v, on in zip(rows, value, on_tier)],
                                 dtype=np.float64),
        move_cost_usd=column("move_cost", 0.0, np.float64),
    )


def _terms(count: int = 1, policy: MovePolicy = FREE, price: float = 0.5) -> list[TargetTerms]:
    return [TargetTerms(f"t{i}", policy, price) for i in range(count)]


class GreedyTests(unittest.TestCase):
    def test_it_takes_the_most_value_per_gb_first(self):
        # 10 GB: b ($4/GB) and c ($3/GB) fit; a ($1/GB) would be next.
        items = _items([{"gb": 5, "value": 5}, {"gb": 5, "value": 20}, {"gb": 5, "value": 15}])

        split = budget_split(items, _terms(), Capacity(gb=10))

        self.assertEqual(split.outcome.tolist(), [Outcome.OFF, Outcome.MOVES_IN, Outcome.MOVES_IN])
        self.assertEqual(split.used_weight, 10 * GB)
        self.assertAlmostEqual(split.marginal_usd_per_gb_month, 1.0)  # a's $5 over its 5 GB
        self.assertAlmostEqual(split.last_taken_usd_per_gb_month, 3.0)

    def test_it_skips_an_item_that_does_not_fit_and_goes_on_with_smaller_ones(self):
        # 10 GB: a (8 GB, $10/GB) fits; b (5 GB, $8/GB) does not; c (2 GB, $5/GB) still does.
        items = _items([{"gb": 8, "value": 80}, {"gb": 5, "value": 40}, {"gb": 2, "value": 10}, {"gb": 1, "value": 1}])

        split = budget_split(items, _terms(), Capacity(gb=10))

        self.assertEqual(split.outcome.tolist(), [Outcome.MOVES_IN, Outcome.OFF, Outcome.MOVES_IN, Outcome.OFF])
        self.assertAlmostEqual(split.marginal_usd_per_gb_month, 8.0)  # b: the first left out

    def test_it_never_takes_an_item_worth_nothing_on_the_tier(self):
        items = _items([{"gb": 1, "value": 0}, {"gb": 1, "value": -3}])

        split = budget_split(items, _terms(), Capacity(gb=100))

        self.assertEqual(split.outcome.tolist(), [Outcome.OFF, Outcome.OFF])
        self.assertEqual(split.marginal_usd_per_gb_month, 0.0)

    def test_it_breaks_ties_by_the_tier_now_then_the_input_order(self):
        # Three items of $2/GB, room for two: the one on the tier first, then the first in the input.
        items = _items([{"gb": 1, "value": 2}, {"gb": 1, "value": 2}, {"gb": 1, "value": 2, "on": True}])

        outcomes = {tuple(budget_split(items, _terms(), Capacity(gb=2)).outcome.tolist()) for _ in range(5)}

        self.assertEqual(outcomes, {(Outcome.MOVES_IN, Outcome.OFF, Outcome.STAYS)})

    def test_it_orders_ties_as_a_stable_sort_would_though_it_sorts_faster(self):
        # Many equal ratios (and weights of 0: infinite ratios): the input order, on the tier first, decides.
        rng = np.random.default_rng(3)
        for trial in range(100):
            n = int(rng.integers(1, 300))
            value, weight = rng.integers(-3, 6, n).astype(float), rng.integers(0, 4, n)
            on = rng.random(n) < 0.3
            free = np.flatnonzero(value > 0)
            ahead = np.concatenate([free[on[free]], free[~on[free]]])
            with np.errstate(divide="ignore"):
                stable = ahead[np.argsort(-(value[ahead] / weight[ahead]), kind="stable")]
            with self.subTest(trial=trial):
                self.assertEqual(budget._by_value(free, value, weight, on).tolist(), stable.tolist())

    def test_it_walks_the_rest_one_by_one_after_many_rounds_and_agrees_with_a_plain_walk(self):
        # Sizes falling so that every round skips one item: more rounds than the vectorised walk does.
        rng = np.random.default_rng(7)
        sizes = rng.integers(1, 400, 300)
        items = _items([{"gb": int(s), "value": float(v)} for s, v in zip(sizes, rng.random(300) * sizes)])

        with mock.patch.object(budget, "_VECTOR_ROUNDS", 1):
            walked = budget_split(items, _terms(), Capacity(gb=5000))
        split = budget_split(items, _terms(), Capacity(gb=5000))

        self.assertEqual(walked.outcome.tolist(), split.outcome.tolist())
        order = sorted(range(300), key=lambda i: -(items.value[i] / items.size_bytes[i]))
        left, expected = 5000 * GB, set()
        for i in order:
            if items.size_bytes[i] <= left:
                expected.add(i)
                left -= items.size_bytes[i]
        self.assertEqual(set(split.indexes(Outcome.MOVES_IN).tolist()), expected)


class ForcedAndUnknownTests(unittest.TestCase):
    def test_it_counts_what_cannot_leave_the_tier_first(self):
        # The kept segment (not movable) takes 6 of the 10 GB although it is worth least.
        items = _items([{"gb": 6, "value": 1, "on": True, "may_move": False}, {"gb": 5, "value": 50},
                        {"gb": 4, "value": 20}])

        split = budget_split(items, _terms(), Capacity(gb=10))

        self.assertEqual(split.outcome.tolist(), [Outcome.KEPT, Outcome.OFF, Outcome.MOVES_IN])
        result = split.targets[0]
        self.assertEqual((result.kept, result.kept_gb, result.gb_after), (1, 6.0, 10.0))

    def test_it_says_when_what_cannot_leave_is_more_than_the_budget(self):
        items = _items([{"gb": 12, "value": 1, "on": True, "may_move": False}, {"gb": 1, "value": 50}])

        split = budget_split(items, _terms(), Capacity(gb=10))

        self.assertTrue(split.forced_over)
        self.assertEqual(split.outcome.tolist(), [Outcome.KEPT, Outcome.OFF])

    def test_it_evicts_what_the_budget_has_no_room_for_at_a_cost(self):
        # Two segments on the tier, both cheapest there; room for one: the one worth more per GB stays.
        items = _items([{"gb": 5, "value": 5, "on": True}, {"gb": 5, "value": 10, "on": True}])

        split = budget_split(items, _terms(), Capacity(gb=5))

        self.assertEqual(split.outcome.tolist(), [Outcome.EVICTED, Outcome.STAYS])
        result = split.targets[0]
        self.assertEqual((result.evicted, result.evicted_gb, result.gb_now, result.gb_after), (1, 5.0, 10.0, 5.0))
        self.assertAlmostEqual(result.saving_usd_per_month, -5.0)  # the eviction costs its value a month
        self.assertAlmostEqual(result.vs_recommendations_usd_per_month, -5.0)

    def test_it_keeps_a_move_out_that_would_not_repay_and_counts_it(self):
        # Both are cheaper elsewhere by $2/month; a $10 move repays in 3 months only at >= $3.34/month.
        policy = MovePolicy(dba_cost_usd=Decimal(10), horizon_months=Decimal(3), min_saving_usd_per_month=Decimal(1))
        items = _items([{"gb": 4, "value": -2, "on": True, "move_cost": 10.0},
                        {"gb": 4, "value": -20, "on": True, "move_cost": 10.0}, {"gb": 8, "value": 80}])

        split = budget_split(items, _terms(policy=policy), Capacity(gb=10))

        # The first stays on the tier and takes 4 GB, so the 8 GB segment no longer fits.
        self.assertEqual(split.outcome.tolist(), [Outcome.KEPT_NOT_REPAYING, Outcome.MOVES_OUT, Outcome.OFF])
        result = split.targets[0]
        self.assertEqual((result.kept_not_repaying, result.moves_out, result.moves_out_gb), (1, 1, 4.0))
        self.assertAlmostEqual(result.saving_usd_per_month, 20.0)

    def test_it_never_moves_in_what_would_not_repay_or_may_not_move(self):
        policy = MovePolicy(dba_cost_usd=Decimal(100), horizon_months=Decimal(1), min_saving_usd_per_month=Decimal(1))
        items = _items([{"gb": 1, "value": 5, "move_cost": 100.0}, {"gb": 1, "value": 500, "move_cost": 100.0},
                        {"gb": 1, "value": 900, "may_move": False}])

        split = budget_split(items, _terms(policy=policy), Capacity(gb=10))

        self.assertEqual(split.outcome.tolist(), [Outcome.OFF, Outcome.MOVES_IN, Outcome.OFF])

    def test_it_never_takes_a_segment_whose_figures_are_unknown_and_counts_it(self):
        items = _items([{"gb": None, "value": 50}, {"gb": 1, "value": float("nan")}, {"gb": 1, "value": 2},
                        {"gb": None, "value": 9, "on": True}, {"gb": 3, "value": float("nan"), "on": True}])

        split = budget_split(items, _terms(), Capacity(gb=100))

        self.assertEqual(split.outcome.tolist(),
                         [Outcome.OFF, Outcome.OFF, Outcome.MOVES_IN, Outcome.KEPT, Outcome.KEPT])
        result = split.targets[0]
        self.assertEqual((result.unknown, result.unknown_size_on_tier), (4, 1))
        self.assertEqual((result.gb_now, result.gb_after), (3.0, 4.0))  # the unknown size in neither


class UnitsTests(unittest.TestCase):
    def test_it_converts_a_usd_budget_at_each_targets_price_per_gb_month(self):
        # $10/month: at $1/GB-month target 0's 6 GB segment costs $6, at $0.5 target 1's 8 GB costs $4.
        items = _items([{"gb": 6, "value": 60, "target": 0}, {"gb": 8, "value": 40, "target": 1},
                        {"gb": 1, "value": 1, "target": 0}])
        terms = [TargetTerms("t0", FREE, 1.0), TargetTerms("t1", FREE, 0.5)]

        split = budget_split(items, terms, Capacity(usd_per_month=10))

        self.assertEqual(split.outcome.tolist(), [Outcome.MOVES_IN, Outcome.MOVES_IN, Outcome.OFF])
        self.assertEqual(split.used_weight, 10 * 1_000_000)  # micro-USD a month
        self.assertEqual([r.gb_after for r in split.targets], [6.0, 8.0])

    def test_it_prices_a_gb_a_month_in_each_billing_basis(self):
        # A purchase of $30/GB over 60 months is $0.50/GB-month; a monthly price stays as it is.
        self.assertEqual(usd_per_gb_month(Decimal(30), 60), 0.5)
        self.assertEqual(usd_per_gb_month(Decimal("0.125"), 1), 0.125)

    def test_it_refuses_a_budget_of_nothing_or_of_both_kinds(self):
        for kwargs in ({"gb": 0}, {"gb": -5}, {"usd_per_month": float("nan")}, {}, {"gb": 1, "usd_per_month": 1}):
            with self.subTest(kwargs=kwargs), self.assertRaises(BudgetError):
                Capacity(**kwargs)

    def test_it_splits_per_target_and_adds_up_to_the_fleet(self):
        items = _items([{"gb": 2, "value": 4, "target": 0}, {"gb": 3, "value": 9, "target": 1},
                        {"gb": 1, "value": 1, "on": True, "target": 1}])

        split = budget_split(items, _terms(2), Capacity(gb=5))

        self.assertEqual([(r.moves_in, r.moves_in_gb) for r in split.targets], [(1, 2.0), (1, 3.0)])
        self.assertEqual(split.outcome[2], Outcome.EVICTED)
        self.assertAlmostEqual(split.total("saving_usd_per_month"), 5.0 + 10.0 - 1.0)


class BruteForceTests(unittest.TestCase):
    def test_it_is_within_one_items_value_of_the_best_subset(self):
        rng = np.random.default_rng(17)
        for case in range(200):
            n = int(rng.integers(1, 10))
            rows = [{"gb": float(rng.integers(1, 20)), "value": float(rng.normal(5, 6)),
                     "on": bool(rng.random() < 0.3), "may_move": bool(rng.random() < 0.9)} for _ in range(n)]
            capacity = float(rng.integers(1, 60))
            items = _items(rows)
            split = budget_split(items, _terms(), Capacity(gb=capacity))
            with self.subTest(case=case):
                greedy, best, biggest = _values(items, split, capacity)
                self.assertGreaterEqual(greedy + 1e-9, best - biggest)
                self.assertLessEqual(greedy, best + 1e-9)


def _values(items: Items, split, capacity_gb: float) -> tuple[float, float, float]:
    """(the greedy's value on the tier, the best subset's, the largest single value among the free items)."""
    value = items.value
    forced = np.isin(split.outcome, (Outcome.KEPT, Outcome.KEPT_NOT_REPAYING))
    free = [i for i in range(len(items)) if not forced[i] and value[i] > 0
            and (items.on_tier[i] or items.may_move[i])]
    room = capacity_gb * GB - items.size_bytes[forced].sum()
    greedy = float(value[np.isin(split.outcome, (Outcome.STAYS, Outcome.MOVES_IN))].sum())
    best = 0.0
    for r in range(len(free) + 1):
        for subset in itertools.combinations(free, r):
            if items.size_bytes[list(subset)].sum() <= room:
                best = max(best, float(value[list(subset)].sum()))
    return greedy, best, max((float(value[i]) for i in free), default=0.0)


class PurityTests(unittest.TestCase):
    def test_it_imports_without_django(self):
        code = "import sys, apps.tiering.budget; print(any(m.startswith('django') for m in sys.modules))"
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)

        self.assertEqual(out.stdout.strip(), "False")
