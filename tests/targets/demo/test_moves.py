"""Moves applied to the demo database (apps.targets.demo.moves): pure, no database."""

from __future__ import annotations

import datetime as dt
import unittest

from apps.targets.demo import moves
from apps.targets.demo.moves import DemoMove, builtin_moves, moves_from_json, moves_to_json, segments_moved
from apps.targets.demo.schema import segments_at, snap_end_at
from apps.targets.demo.simulator import cache_plan, simulate_hour
from apps.targets.demo.source import DemoSource, segment_infos, tablespace_space_at_moved
from apps.targets.rows import SegmentKey

from .moved import KEY, LATEST, MOVE, NOW


def _spec(snap_id: int, applied: tuple[DemoMove, ...]):
    return next(spec for spec in segments_moved(snap_id, applied) if spec.key == KEY)


def _stat(snap_id: int, applied: tuple[DemoMove, ...]):
    return next(s for s in simulate_hour(42, snap_id, 1, applied).segment_stats if s.key == KEY)


class DemoMoveTests(unittest.TestCase):
    def test_the_built_in_move_is_3_5_days_before_the_hour_the_target_was_created(self):
        (move,) = builtin_moves(NOW)
        self.assertEqual(move, DemoMove(LATEST - 84, KEY, "FLASH_DATA"))
        self.assertEqual(snap_end_at(move.from_snap_id) - dt.timedelta(hours=1), dt.datetime(2026, 11, 22, 0, 0,
                                                                                               tzinfo=dt.timezone.utc))

    def test_a_move_changes_the_segment_from_its_hour_on_and_nothing_before(self):
        before, after = _spec(MOVE.from_snap_id - 1, (MOVE,)), _spec(MOVE.from_snap_id, (MOVE,))
        unmoved = _spec(MOVE.from_snap_id, ())
        self.assertEqual(before, _spec(MOVE.from_snap_id - 1, ()))
        self.assertEqual((unmoved.tablespace_name, unmoved.flash_cache), ("SOE_INDEX", "DEFAULT"))
        # On flash: a new data object id (a REBUILD) and FLASH_CACHE NONE, as the demo's other flash segments.
        self.assertEqual((after.tablespace_name, after.flash_cache), ("FLASH_DATA", "NONE"))
        self.assertEqual(after.dataobj_number, unmoved.dataobj_number + 700_000)
        # Every other segment is as it was.
        others = [s for s in segments_moved(MOVE.from_snap_id, (MOVE,)) if s.key != KEY]
        self.assertEqual(others, [s for s in segments_at(MOVE.from_snap_id) if s.key != KEY])

    def test_its_reads_are_counted_on_the_new_tablespace_and_the_flash_cache_serves_none_of_them(self):
        hour = MOVE.from_snap_id + 30  # a later day: the cache plan has been made again
        moved, unmoved = _stat(hour, (MOVE,)), _stat(hour, ())
        self.assertEqual(moved.physical_read_requests, unmoved.physical_read_requests)  # same workload
        self.assertGreater(unmoved.optimized_physical_reads, 0)
        self.assertEqual((moved.tablespace_name, moved.optimized_physical_reads), ("FLASH_DATA", 0))
        placement = cache_plan(hour, (MOVE,))[_spec(hour, (MOVE,)).dataobj_number]
        self.assertEqual((placement.flash_blocks, placement.flash_hit_ratio), (0, 0.0))  # the buffer cache still helps
        io = {t.tablespace_name: t for t in simulate_hour(42, hour, 1, (MOVE,)).tablespace_io}
        io_unmoved = {t.tablespace_name: t for t in simulate_hour(42, hour, 1, ()).tablespace_io}
        self.assertEqual(io["FLASH_DATA"].read_requests - io_unmoved["FLASH_DATA"].read_requests,
                         moved.physical_read_requests)
        self.assertLess(io["FLASH_DATA"].read_time_ms / io["FLASH_DATA"].read_requests, 0.5)

    def test_the_source_lists_it_where_it_went_and_counts_its_room_there(self):
        listed = {info.key: info for info in segment_infos(LATEST, (MOVE,))}
        self.assertEqual(listed[KEY].tablespace_name, "FLASH_DATA")
        size = listed[KEY].bytes
        room = {row.tablespace_name: row for row in tablespace_space_at_moved(LATEST, (MOVE,))}
        unmoved = {row.tablespace_name: row for row in tablespace_space_at_moved(LATEST, ())}
        self.assertEqual(room["FLASH_DATA"].used_bytes, unmoved["FLASH_DATA"].used_bytes + size)
        self.assertEqual(room["SOE_INDEX"].used_bytes, unmoved["SOE_INDEX"].used_bytes - size)
        self.assertEqual(DemoSource(seed=42, moves=(MOVE,)).moves, (MOVE,))

    def test_moves_round_trip_through_a_target_s_capabilities_and_bad_rows_are_refused(self):
        applied = (MOVE, DemoMove(LATEST, SegmentKey("SOE", "ORDERS", "ORDERS_P2026_11", "TABLE PARTITION"),
                                  "FLASH_DATA"))
        self.assertEqual(moves_from_json(moves_to_json(applied)), applied)
        self.assertEqual(moves.target_moves(created_at=NOW, capabilities={"demo_moves": moves_to_json(applied[1:])}),
                         applied)
        with self.assertRaisesRegex(ValueError, "is not \\[owner, object, subobject, type, tablespace, snap_id\\]"):
            moves_from_json([["SOE", "X", "", "TABLE", "FLASH_DATA", "12"]])

    def test_a_move_to_a_tablespace_the_demo_lacks_is_ignored(self):
        self.assertEqual(_spec(LATEST, (DemoMove(LATEST - 1, KEY, "NO_SUCH_TS"),)), _spec(LATEST, ()))

    def test_a_plan_s_moves_apply_from_the_first_whole_hour_after_it_was_marked(self):
        (move,) = moves.executed_moves(executed_at=NOW, moved=[(KEY, "FLASH_DATA")])
        self.assertEqual(snap_end_at(move.from_snap_id) - dt.timedelta(hours=1),
                         dt.datetime(2026, 11, 25, 14, 0, tzinfo=dt.timezone.utc))
