"""feasibility(): each move of a plan against the room its destination has, counting the moves before it."""

from __future__ import annotations

import doctest
import unittest

from apps.targets.rows import TablespaceSpace
from apps.tiering.moves import feasibility as feasibility_module
from apps.tiering.moves.feasibility import Move, feasibility

GB = 10**9


def space(**room: tuple[int | None, int | None]) -> dict[str, TablespaceSpace]:
    """name=(used, max size) -> TablespaceSpace (size = max: what it is now does not matter here)."""
    return {name: TablespaceSpace(name, size_bytes=high, used_bytes=used, max_size_bytes=high)
            for name, (used, high) in room.items()}


class FeasibilityTests(unittest.TestCase):
    def test_it_fits_a_move_into_room(self) -> None:
        [check] = feasibility([Move(10 * GB, "DISK", "FLASH")], space(FLASH=(80 * GB, 100 * GB))).checks

        self.assertEqual((check.fits, check.shortfall_bytes, check.room_after_bytes), (True, 0, 10 * GB))

    def test_it_gives_the_shortfall_of_a_move_that_does_not_fit(self) -> None:
        [check] = feasibility([Move(30 * GB, "DISK", "FLASH")], space(FLASH=(80 * GB, 100 * GB))).checks

        self.assertEqual((check.fits, check.shortfall_bytes), (False, 10 * GB))

    def test_it_counts_the_moves_before_it(self) -> None:
        moves = [Move(15 * GB, "DISK", "FLASH"), Move(10 * GB, "DISK", "FLASH")]

        first, second = feasibility(moves, space(FLASH=(80 * GB, 100 * GB))).checks

        self.assertTrue(first.fits)
        self.assertEqual((second.fits, second.shortfall_bytes), (False, 5 * GB))

    def test_it_frees_a_moved_segment_at_its_source(self) -> None:
        # Alone the second move lacks 20 GB; the cold archive leaving flash first makes room for it.
        moves = [Move(35 * GB, "FLASH", "DISK"), Move(40 * GB, "DISK", "FLASH")]

        result = feasibility(moves, space(FLASH=(80 * GB, 100 * GB), DISK=(100 * GB, 1000 * GB)))

        self.assertEqual([check.fits for check in result.checks], [True, True])
        self.assertEqual(result.room_after_bytes, {"DISK": 905 * GB, "FLASH": 15 * GB})

    def test_it_frees_nothing_for_the_moves_before_it(self) -> None:
        moves = [Move(40 * GB, "DISK", "FLASH"), Move(35 * GB, "FLASH", "DISK")]

        first, _second = feasibility(moves, space(FLASH=(80 * GB, 100 * GB), DISK=(100 * GB, 1000 * GB))).checks

        self.assertEqual((first.fits, first.shortfall_bytes), (False, 20 * GB))

    def test_it_counts_a_move_that_does_not_fit_for_the_next_ones(self) -> None:
        moves = [Move(30 * GB, "DISK", "FLASH"), Move(5 * GB, "DISK", "FLASH")]

        first, second = feasibility(moves, space(FLASH=(80 * GB, 100 * GB))).checks

        self.assertEqual(first.shortfall_bytes, 10 * GB)
        # What flash lacks for both: the plan runs them all.
        self.assertEqual((second.fits, second.shortfall_bytes, second.room_after_bytes), (False, 15 * GB, -15 * GB))

    def test_it_never_takes_an_unknown_size_for_zero(self) -> None:
        moves = [Move(None, "DISK", "FLASH"), Move(1, "DISK", "FLASH")]

        first, second = feasibility(moves, space(FLASH=(80 * GB, 100 * GB))).checks

        self.assertEqual((first.fits, first.shortfall_bytes, first.room_after_bytes), (None, None, None))
        # After a segment of unknown size went in, flash's room is unknown.
        self.assertEqual((second.fits, second.shortfall_bytes), (None, None))

    def test_it_says_unknown_where_the_room_is_not_known(self) -> None:
        moves = [Move(GB, "DISK", "NEW_TS"), Move(GB, "DISK", "HALF"), Move(GB, "DISK", None)]

        checks = feasibility(moves, space(HALF=(None, 100 * GB))).checks

        self.assertEqual([(check.fits, check.shortfall_bytes) for check in checks], [(None, None)] * 3)

    def test_it_keeps_a_lower_bound_after_a_move_out_of_unknown_size(self) -> None:
        moves = [Move(None, "FLASH", "DISK"), Move(5 * GB, "DISK", "FLASH"), Move(30 * GB, "DISK", "FLASH")]

        _out, fits, unknown = feasibility(moves, space(FLASH=(80 * GB, 100 * GB))).checks

        self.assertEqual((fits.fits, fits.room_exact), (True, False))
        self.assertEqual(feasibility(moves, space(FLASH=(80 * GB, 100 * GB))).room_after_exact["FLASH"], False)
        # 15 GB known to be free, and whatever the move out freed: 30 GB may fit.
        self.assertEqual((unknown.fits, unknown.shortfall_bytes), (None, None))

    def test_it_lists_the_moves_short_of_room(self) -> None:
        moves = [Move(30 * GB, "DISK", "FLASH"), Move(GB, "FLASH", "DISK"), Move(GB, "DISK", "FLASH")]

        result = feasibility(moves, space(FLASH=(80 * GB, 100 * GB), DISK=(0, GB)))

        self.assertEqual(result.short, (0, 2))

    def test_it_checks_ten_thousand_moves_at_once(self) -> None:
        moves = [Move(GB, f"TS{i % 7}", f"TS{(i + 1) % 7}") for i in range(10_000)]
        room = space(**{f"TS{i}": (100 * GB, 2000 * GB) for i in range(7)})

        result = feasibility(moves, room)  # its time: bench/bench_pure.py

        self.assertEqual(len(result.checks), 10_000)

    def test_its_examples_hold(self) -> None:
        self.assertEqual(doctest.testmod(feasibility_module).failed, 0)
