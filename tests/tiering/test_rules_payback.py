"""Moves worth making (issue 16, item 1) in the rules: "not_worth_moving" and the words of a move's payback."""

from __future__ import annotations

import unittest
from decimal import Decimal

from apps.tiering.rules import ACTIONS, FINDING_CODES, MoveFigures, advise
from tests.tiering.rule_figures import figures, reason_text

GIB = 1024**3


def move(**overrides: object) -> MoveFigures:
    """A 2 GB move that saves $12.50 a month and costs a DBA $50: 122 days, past a 3-month horizon."""
    base: dict[str, object] = {
        "saving_per_month": Decimal("12.50"), "cost": Decimal("50.00"), "payback_days": 121.75,
        "seconds": 71.68, "redo_bytes": 2 * GIB, "horizon_months": Decimal("3.00"),
        "min_saving_per_month": Decimal("1.00"),
    }
    base.update(overrides)
    return MoveFigures(**base)  # type: ignore[arg-type]


class StoredCodesTests(unittest.TestCase):
    def test_it_appends_its_action_and_finding_without_moving_the_stored_ones(self) -> None:
        # Stored rows hold actions by name and findings by bit: the earlier ones keep their places.
        self.assertEqual(ACTIONS[:6], ("keep", "move", "move_partitions", "flash_cache_keep", "flash_cache_none",
                                       "not_movable"))
        self.assertEqual(ACTIONS.index("not_worth_moving"), 6)
        self.assertEqual(FINDING_CODES[:14], (
            "size_unknown", "below_awr_capture", "undo_redo", "temp_ok", "write_heavy", "full_scan",
            "already_resident", "flash_cache_keep", "flash_cache_none", "partition_skew", "unmeasured",
            "not_movable", "moves_with_lob", "name_truncated"))
        self.assertEqual(FINDING_CODES.index("not_worth_moving"), 14)


class NotWorthMovingTests(unittest.TestCase):
    def test_a_move_that_does_not_pay_back_stays_and_says_so_with_its_figures(self) -> None:
        advice = advise(figures(not_worth_moving=True, move=move()))

        self.assertEqual((advice.action, advice.recommended_tier), ("not_worth_moving", "FAST_DISK"))
        self.assertEqual(advice.codes[:2], ("not_worth_moving", "cheaper_tier"))
        self.assertEqual(reason_text(advice, "not_worth_moving"), (
            "Not worth moving: the move to FLASH would save $12.50/month, its $50.00 move would take 122 days to "
            "pay back, beyond the 3-month horizon; it stays on FAST_DISK. It copies 2 GB (about 2 GB of redo, "
            "LOGGING) in about 72 s at the tiers' throughput."))
        self.assertTrue(reason_text(advice, "cheaper_tier").startswith("By cost alone, FLASH"))

    def test_a_move_under_the_minimum_saving_names_the_minimum(self) -> None:
        advice = advise(figures(not_worth_moving=True, move=move(
            saving_per_month=Decimal("0.02"), cost=Decimal("0.00"), payback_days=0.0)))

        self.assertIn("the move to FLASH would save $0.02/month, under the minimum of $1.00/month; "
                      "it stays on FAST_DISK", reason_text(advice, "not_worth_moving"))

    def test_an_unknown_throughput_leaves_the_duration_unknown_in_words(self) -> None:
        advice = advise(figures(not_worth_moving=True, move=move(seconds=None, unknown_throughput=("FLASH",))))

        self.assertIn("how long that takes is unknown: no throughput is known for FLASH",
                      reason_text(advice, "not_worth_moving"))

    def test_a_segment_held_for_another_reason_is_not_called_not_worth_moving(self) -> None:
        advice = advise(figures(owner="SYS", object_name="OBJ$", not_worth_moving=True, move=move()))

        self.assertEqual(advice.action, "not_movable")
        self.assertNotIn("not_worth_moving", advice.codes)

    def test_a_cheaper_flash_cache_hint_comes_before_a_move_not_worth_making(self) -> None:
        hot_not_cached = figures(flash_cache_enabled=True, flash_blocks=0, not_worth_moving=True, move=move())

        advice = advise(hot_not_cached)

        self.assertEqual((advice.action, advice.flash_cache_hint), ("flash_cache_keep", "KEEP"))
        self.assertEqual(advice.recommended_tier, "FAST_DISK")
        self.assertIn("not_worth_moving", advice.codes)


class PaybackWordsTests(unittest.TestCase):
    def test_a_move_made_says_what_it_saves_and_when_it_pays_back(self) -> None:
        advice = advise(figures(move=move(payback_days=60.875, cost=Decimal("25.00"))))

        self.assertEqual(advice.action, "move")
        self.assertEqual(advice.codes, ("cheaper_tier", "payback"))
        self.assertTrue(reason_text(advice, "payback").startswith(
            "The move saves $12.50/month and pays back its $25.00 move in 61 days, within the 3-month horizon "
            "(a DBA's cost per move; the copy's IO adds nothing to what the tiers are paid for)."))

    def test_a_move_without_a_one_off_cost_says_no_move_cost_is_set_not_a_payback_of_zero(self) -> None:
        advice = advise(figures(move=move(cost=Decimal("0.00"), payback_days=0.0)))

        text = reason_text(advice, "payback")
        self.assertTrue(text.startswith("The move saves $12.50/month; no move cost is set, so there is nothing to "
                                        "pay back (no DBA cost per move is set"), text)
        self.assertNotIn("$0.00 move", text)
