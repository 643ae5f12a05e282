"""feasibility() with disk groups: a move that makes its destination's files grow needs that growth free in the
ASM disk group(s) they autoextend into (usable free space), counting the moves before it; unknown stays unknown."""

from __future__ import annotations

import unittest

from apps.targets.rows import TablespaceSpace
from apps.tiering.moves.feasibility import Move, feasibility

GB = 10**9


def data_ts(*, size: int = 100 * GB, used: int = 90 * GB, high: int = 500 * GB) -> dict[str, TablespaceSpace]:
    """SOE: its files hold ``size`` now (``used`` of it used) and may autoextend up to ``high``."""
    return {"SOE": TablespaceSpace("SOE", size_bytes=size, used_bytes=used, max_size_bytes=high)}


GROWS_IN_DATA = {"SOE": {"+DATA": 400 * GB}}


class DiskGroupRoomTests(unittest.TestCase):
    def test_it_needs_no_disk_group_room_for_a_move_its_files_already_hold(self) -> None:
        [check] = feasibility([Move(10 * GB, "HIST", "SOE")], data_ts(), growth=GROWS_IN_DATA,
                              location_room={"+DATA": 0}).checks

        self.assertEqual((check.fits, check.growth_bytes, check.disk_fits), (True, 0, None))

    def test_it_flags_a_move_whose_growth_the_disk_group_lacks(self) -> None:
        # 50 GB into 10 GB free in the files: they must grow 40 GB, and +DATA has 25 GB usable.
        [check] = feasibility([Move(50 * GB, "HIST", "SOE")], data_ts(), growth=GROWS_IN_DATA,
                              location_room={"+DATA": 25 * GB}).checks

        self.assertEqual((check.fits, check.shortfall_bytes), (False, 15 * GB))
        self.assertEqual((check.growth_bytes, check.disk_fits, check.disk_shortfall_bytes, check.disk_locations),
                         (40 * GB, False, 15 * GB, ("+DATA",)))
        self.assertEqual(check.room_after_bytes, 360 * GB)  # the tablespace itself had room

    def test_it_counts_the_moves_before_it_in_the_same_disk_group(self) -> None:
        space = {**data_ts(), "IDX": TablespaceSpace("IDX", size_bytes=10 * GB, used_bytes=10 * GB,
                                                     max_size_bytes=100 * GB)}
        growth = {"SOE": {"+DATA": 400 * GB}, "IDX": {"+DATA": 90 * GB}}
        moves = [Move(30 * GB, "HIST", "SOE"), Move(15 * GB, "HIST", "IDX")]

        first, second = feasibility(moves, space, growth=growth, location_room={"+DATA": 30 * GB}).checks

        self.assertEqual((first.fits, first.growth_bytes), (True, 20 * GB))
        self.assertEqual((second.fits, second.disk_shortfall_bytes), (False, 5 * GB))

    def test_a_move_out_frees_room_in_the_files_but_none_in_the_disk_group(self) -> None:
        moves = [Move(20 * GB, "SOE", "HIST"), Move(25 * GB, "HIST", "SOE")]

        _out, into = feasibility(moves, data_ts(), growth=GROWS_IN_DATA, location_room={"+DATA": 0}).checks

        self.assertEqual((into.fits, into.growth_bytes), (True, 0))  # 10 + 20 GB free in the files now

    def test_a_negative_usable_free_space_takes_no_growth(self) -> None:
        [check] = feasibility([Move(11 * GB, "HIST", "SOE")], data_ts(), growth=GROWS_IN_DATA,
                              location_room={"+DATA": -5 * GB}).checks

        self.assertEqual((check.fits, check.disk_shortfall_bytes), (False, 1 * GB))

    def test_it_leaves_the_disk_check_unknown_where_free_space_was_not_read(self) -> None:
        [check] = feasibility([Move(50 * GB, "HIST", "SOE")], data_ts(), growth=GROWS_IN_DATA,
                              location_room={"+DATA": None}).checks

        # The tablespace's own verdict stands; the disk group's part is not known, never taken as 0.
        self.assertEqual((check.fits, check.disk_fits, check.disk_shortfall_bytes), (True, None, None))
        self.assertEqual(check.growth_bytes, 40 * GB)

    def test_it_grows_into_the_group_with_most_room_first(self) -> None:
        growth = {"SOE": {"+DATA": 400 * GB, "+FLASH": 100 * GB}}

        [check] = feasibility([Move(50 * GB, "HIST", "SOE")], data_ts(), growth=growth,
                              location_room={"+DATA": 10 * GB, "+FLASH": 35 * GB}).checks

        self.assertEqual((check.fits, check.disk_locations), (True, ("+DATA", "+FLASH")))

    def test_a_file_system_beside_a_full_disk_group_leaves_it_unknown(self) -> None:
        growth = {"SOE": {"+DATA": 400 * GB, "/u03": 100 * GB}}

        [check] = feasibility([Move(50 * GB, "HIST", "SOE")], data_ts(), growth=growth,
                              location_room={"+DATA": 0, "/u03": None}).checks

        self.assertEqual((check.fits, check.disk_fits), (True, None))

    def test_it_caps_each_group_at_the_headroom_of_the_files_in_it(self) -> None:
        growth = {"SOE": {"+DATA": 10 * GB, "+FLASH": 400 * GB}}

        [check] = feasibility([Move(50 * GB, "HIST", "SOE")], data_ts(), growth=growth,
                              location_room={"+DATA": 1000 * GB, "+FLASH": 20 * GB}).checks

        self.assertEqual((check.fits, check.disk_shortfall_bytes), (False, 10 * GB))

    def test_without_growth_figures_it_checks_the_tablespace_alone(self) -> None:
        [check] = feasibility([Move(50 * GB, "HIST", "SOE")], data_ts()).checks

        self.assertEqual((check.fits, check.disk_fits, check.growth_bytes), (True, None, 40 * GB))

    def test_growth_is_unknown_where_the_files_size_is(self) -> None:
        space = {"SOE": TablespaceSpace("SOE", size_bytes=None, used_bytes=90 * GB, max_size_bytes=500 * GB)}

        [check] = feasibility([Move(50 * GB, "HIST", "SOE")], space, growth=GROWS_IN_DATA,
                              location_room={"+DATA": 0}).checks

        self.assertEqual((check.fits, check.growth_bytes, check.disk_fits), (True, None, None))
