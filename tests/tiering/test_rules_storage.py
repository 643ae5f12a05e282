"""The storage map's finding in the rules: a move off an array pool that tiers by itself carries a warning."""

from __future__ import annotations

import unittest

from apps.tiering.rules import FINDING_CODES, advise, finding_codes
from tests.tiering.rule_figures import figures, reason_text

ARRAY_TIERING = 1 << FINDING_CODES.index("array_tiering")


class ArrayTieringTests(unittest.TestCase):
    def test_it_is_appended_to_the_finding_codes(self) -> None:
        # Stored masks read back the same: earlier codes keep their bits.
        self.assertEqual(FINDING_CODES[-1], "array_tiering")
        self.assertEqual(FINDING_CODES.index("partition_lifecycle"), 16)
        self.assertEqual(finding_codes(ARRAY_TIERING), ("array_tiering",))

    def test_a_move_off_such_an_array_carries_the_warning(self) -> None:
        advice = advise(figures(array_tiering=("+DATA",)))

        self.assertEqual(advice.action, "move")
        text = reason_text(advice, "array_tiering")
        self.assertTrue(text.startswith("The array pool behind +DATA tiers by itself: moving segments fights it."))
        self.assertIn("a move to FLASH", text)

    def test_it_changes_nothing_else(self) -> None:
        plain, flagged = advise(figures()), advise(figures(array_tiering=("+DATA",)))

        self.assertEqual((flagged.action, flagged.recommended_tier), (plain.action, plain.recommended_tier))
        self.assertEqual(tuple(code for code in flagged.codes if code != "array_tiering"), plain.codes)

    def test_a_segment_that_stays_gets_no_warning(self) -> None:
        advice = advise(figures(array_tiering=("+DATA",), recommended_tier="FAST_DISK", recommended_is_flash=False))

        self.assertNotEqual(advice.action, "move")
        self.assertNotIn("array_tiering", advice.codes)
