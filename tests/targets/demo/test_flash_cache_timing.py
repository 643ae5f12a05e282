"""The demo times a read its flash cache served at the flash cache's latency, as a real database's file
statistics do, so a segment's flash hits before a move lower its tablespace's measured read time."""

from __future__ import annotations

import unittest
from unittest import mock

from apps.targets.demo import moves, simulator
from apps.targets.demo.schema import TABLESPACE_BY_NAME
from apps.targets.demo.simulator import FLASH_CACHE_READ_MS, clear_caches, simulate_hour

from .moved import MOVE

BEFORE = MOVE.from_snap_id - 10  # an hour before the built-in move: the segment is read through the flash cache


class FlashCacheTimingTests(unittest.TestCase):
    def setUp(self) -> None:
        # Busy-hour queueing off (factor 1), so each tablespace's read time is its reads' latencies summed.
        clear_caches()
        patcher = mock.patch.object(simulator, "_latency_factor", lambda rng, ctx: 1.0)
        patcher.start()
        self.addCleanup(patcher.stop)
        self.addCleanup(clear_caches)

    def test_a_flash_hit_is_timed_at_the_flash_caches_latency_and_a_miss_at_the_tiers(self) -> None:
        snapshot = simulate_hour(42, BEFORE, 1, (MOVE,))
        hits = {name: 0 for name in TABLESPACE_BY_NAME}
        for stat in snapshot.segment_stats:
            hits[stat.tablespace_name] += stat.optimized_physical_reads or 0
        self.assertGreater(hits["SOE_INDEX"], 0)
        for io in snapshot.tablespace_io:
            device_ms = TABLESPACE_BY_NAME[io.tablespace_name].read_latency_ms
            expected = (io.read_requests - hits[io.tablespace_name]) * device_ms + hits[io.tablespace_name] * 0.3
            self.assertAlmostEqual(io.read_time_ms, round(expected, 1), delta=0.1, msg=io.tablespace_name)
        self.assertEqual(FLASH_CACHE_READ_MS, TABLESPACE_BY_NAME["FLASH_DATA"].read_latency_ms)

    def test_the_moved_segments_flash_hits_lower_the_before_windows_read_time(self) -> None:
        snapshot = simulate_hour(42, BEFORE, 1, (MOVE,))
        stat = next(s for s in snapshot.segment_stats if s.key == moves.BUILTIN_SEGMENT)
        io = next(t for t in snapshot.tablespace_io if t.tablespace_name == stat.tablespace_name == "SOE_INDEX")
        share = stat.optimized_physical_reads / stat.physical_read_requests
        self.assertGreater(share, 0.5)
        # Below the tier's 5 ms by at least what this one segment's hits save, spread over the tablespace's reads.
        saved_ms = stat.optimized_physical_reads * (5.0 - FLASH_CACHE_READ_MS)
        self.assertLessEqual(io.read_time_ms, io.read_requests * 5.0 - saved_ms + 0.1)
