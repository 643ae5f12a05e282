"""apps.tiering.budget.explain: what each eviction costs against what takes its room, and why each segment
holding a place keeps it."""

from __future__ import annotations

import unittest
from decimal import Decimal

import numpy as np

from apps.tiering.budget import GB, Capacity, Items, Outcome, TargetTerms, budget_split
from apps.tiering.budget.explain import AHEAD, MARGIN, ONE_OFF, ROOM, evictions, kept, lost
from apps.tiering.moves.payback import MovePolicy

DEAR = MovePolicy(dba_cost_usd=Decimal(100), horizon_months=Decimal(3), min_saving_usd_per_month=Decimal(0))
SOME = MovePolicy(dba_cost_usd=Decimal(20), horizon_months=Decimal(3), min_saving_usd_per_month=Decimal(0))
FREE = MovePolicy(dba_cost_usd=Decimal(0), horizon_months=Decimal(3), min_saving_usd_per_month=Decimal(0))


def _case(rows: list[dict], *, policy: MovePolicy = FREE, margin: float = 0.0, gb: float = 10.0):
    value = np.array([row["value"] for row in rows], dtype=np.float64)
    on = np.array([row.get("on", False) for row in rows], dtype=bool)
    items = Items(
        target=np.zeros(len(rows), dtype=np.int64), segment_id=np.arange(len(rows), dtype=np.int64),
        size_bytes=np.array([int(row.get("gb", 10) * GB) for row in rows], dtype=np.int64), on_tier=on,
        may_move=np.array([row.get("may_move", True) for row in rows], dtype=bool),
        cost_on_tier=np.full(len(rows), 10.0), cost_elsewhere=10.0 + value,
        saving_if_moved=np.where(on, -value, value + 1), move_cost_usd=np.full(len(rows), float(policy.dba_cost_usd)),
        incumbent=np.array([row.get("chosen", False) for row in rows], dtype=bool),
    )
    terms = [TargetTerms("t", policy, 0.5, margin=margin)]
    return items, terms, budget_split(items, terms, Capacity(gb=gb))


class EvictionTests(unittest.TestCase):
    def test_it_says_what_an_eviction_costs_and_what_its_replacement_earns(self):
        items, terms, split = _case([{"value": 30, "on": True}, {"value": 200}], policy=DEAR)

        found = evictions(items, terms, split)

        # E loses $30 a month for 3 months and its $100 move; R earns $200 x 3 - its $100 move on E's 10 GB.
        self.assertEqual(found.index.tolist(), [0])
        self.assertEqual((found.replacement.tolist(), found.replacements.tolist()), ([1], [1]))
        self.assertEqual(found.replaced_weight.tolist(), [10 * GB])
        self.assertAlmostEqual(float(found.loses_usd[0]), 190.0)
        self.assertAlmostEqual(float(found.replacement_earns_usd[0]), 500.0)

    def test_it_says_when_nothing_takes_an_evicted_segments_room(self):
        # The budget (10 GB) is below what the tier holds (20 GB): no segment moves in.
        items, terms, split = _case([{"value": 30, "on": True}, {"value": 40, "on": True}], policy=DEAR)

        found = evictions(items, terms, split)

        self.assertEqual(found.index.tolist(), [0])
        self.assertEqual((found.replacement.tolist(), found.replacements.tolist(), found.replaced_weight.tolist()),
                         ([-1], [0], [0]))
        self.assertEqual(found.replacement_earns_usd.tolist(), [0.0])

    def test_it_hands_rooms_over_first_come_first_served_and_shares_the_earnings(self):
        # Two 10 GB evictions, moves in of 15 and 5 GB ahead of them: the first eviction's room goes to the
        # 15 GB one, the second's to the rest of it and the 5 GB one.
        items, terms, split = _case([{"value": 10, "on": True}, {"value": 9, "on": True},
                                     {"gb": 15, "value": 300}, {"gb": 5, "value": 60}], gb=20)

        found = evictions(items, terms, split)

        self.assertEqual(found.index.tolist(), [0, 1])
        self.assertEqual(found.replacement.tolist(), [2, 2])
        self.assertEqual(found.replacements.tolist(), [1, 2])
        # $300 x 3 months over 15 GB: $600 on 10 GB, $300 on the other 5; the 5 GB one's $180 whole.
        self.assertEqual(found.replacement_earns_usd.round(6).tolist(), [600.0, 480.0])

    def test_every_replacement_earns_more_on_its_room_than_the_eviction_loses(self):
        # The rule the split keeps, held on random fleets: on the share of its room they take, the segments
        # taking an evicted one's room earn over the horizon more than it loses with its move, both moves counted.
        rng = np.random.default_rng(5)
        checked = 0
        for case in range(300):
            n = int(rng.integers(2, 30))
            rows = [{"gb": float(rng.integers(1, 20)), "value": float(rng.lognormal(2, 1)),
                     "on": bool(rng.random() < 0.5), "chosen": bool(rng.random() < 0.2)} for _ in range(n)]
            items, terms, split = _case(rows, policy=SOME, margin=0.25, gb=float(rng.integers(5, 150)))
            found = evictions(items, terms, split)
            share = found.replaced_weight / found.weight
            with self.subTest(case=case):
                self.assertTrue(np.all(found.replacement_earns_usd >= share * found.loses_usd - 1e-6))
                self.assertTrue(np.all(found.replaced_weight <= found.weight))
                moved_in = split.weight[split.outcome == Outcome.MOVES_IN].sum()
                self.assertLessEqual(found.replaced_weight.sum(), moved_in)
            checked += int((found.replaced_weight > 0).sum())
        self.assertGreater(checked, 100)  # the property was tested on many real exchanges


class KeptTests(unittest.TestCase):
    def test_it_says_nothing_left_out_would_fit(self):
        items, _, split = _case([{"value": 5, "on": True}, {"gb": 30, "value": 300}])

        found = kept(items, split)

        self.assertEqual((found.index.tolist(), found.reason.tolist(), found.challenger.tolist()), ([0], [ROOM], [-1]))

    def test_it_says_a_place_holder_earns_more_than_any_challenger(self):
        items, _, split = _case([{"value": 20, "on": True}, {"value": 10}])

        found = kept(items, split)

        self.assertEqual((found.reason.tolist(), found.challenger.tolist()), ([AHEAD], [1]))

    def test_it_says_the_exchange_would_not_repay_its_moves(self):
        items, _, split = _case([{"value": 30, "on": True}, {"value": 50}], policy=DEAR)

        found = kept(items, split)

        self.assertEqual((found.reason.tolist(), found.challenger.tolist()), ([ONE_OFF], [1]))

    def test_it_says_a_challenger_is_better_but_within_the_margin(self):
        items, _, split = _case([{"value": 9.5, "chosen": True}, {"value": 10}], margin=0.25)

        found = kept(items, split)

        self.assertEqual((found.index.tolist(), found.reason.tolist(), found.challenger.tolist()), ([0], [MARGIN], [1]))

    def test_it_counts_the_previous_choices_beaten_and_those_no_longer_candidates(self):
        items, _, split = _case([{"value": 5, "chosen": True}, {"value": 50}, {"value": 9, "chosen": True,
                                                                              "may_move": False}], margin=0.25)

        self.assertEqual(split.outcome[1], Outcome.MOVES_IN)
        self.assertEqual(lost(items, split), (1, 1))

    def test_it_lists_no_eviction_when_there_is_none(self):
        items, terms, split = _case([{"value": 5}])

        self.assertEqual(evictions(items, terms, split).index.size, 0)
        self.assertNotIn(Outcome.EVICTED, split.outcome.tolist())
