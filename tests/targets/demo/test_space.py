"""The demo's tablespace sizes: they hold its segments, grow by autoextend within their limits, and flash is tight."""

from __future__ import annotations

import datetime as dt
import unittest
from collections import Counter

from apps.targets.base import CollectState
from apps.targets.demo.schema import TABLESPACES, last_full_snap_id, segments_at
from apps.targets.demo.source import DemoSource
from apps.targets.demo.space import SMALLFILE_MAX_BYTES, tablespace_space_at

UTC = dt.timezone.utc
NOW = dt.datetime(2026, 11, 20, 11, 0, tzinfo=UTC)
GIB = 1024**3


def _used_by_segments(snap_id: int) -> Counter[str]:
    used: Counter[str] = Counter()
    for spec in segments_at(snap_id):
        used[spec.tablespace_name] += spec.size_bytes
    return used


class DemoSpaceTests(unittest.TestCase):
    def test_it_counts_the_segments_of_the_hour_as_used(self) -> None:
        snap_id = last_full_snap_id(NOW)
        used = _used_by_segments(snap_id)

        for space in tablespace_space_at(snap_id):
            with self.subTest(tablespace=space.tablespace_name):
                self.assertEqual(space.used_bytes, used[space.tablespace_name])

    def test_it_lists_only_permanent_tablespaces(self) -> None:
        names = {space.tablespace_name for space in tablespace_space_at(last_full_snap_id(NOW))}

        self.assertEqual(names, {ts.name for ts in TABLESPACES if ts.contents == "PERMANENT"})
        self.assertNotIn("UNDOTBS1", names)

    def test_it_holds_its_segments_every_month_for_three_years(self) -> None:
        for months in range(0, 36):
            snap_id = last_full_snap_id(NOW + dt.timedelta(days=30.5 * months))
            for space in tablespace_space_at(snap_id):
                with self.subTest(months=months, tablespace=space.tablespace_name):
                    assert space.used_bytes is not None and space.size_bytes is not None
                    assert space.max_size_bytes is not None
                    self.assertLessEqual(space.used_bytes, space.size_bytes)
                    self.assertLessEqual(space.size_bytes, space.max_size_bytes)

    def test_it_keeps_flash_tight_and_fixed(self) -> None:
        flash = next(s for s in tablespace_space_at(last_full_snap_id(NOW)) if s.tablespace_name == "FLASH_DATA")

        self.assertFalse(flash.autoextensible)
        self.assertEqual(flash.size_bytes, flash.max_size_bytes)
        # CUSTOMER_ARCHIVE's 35 GB sit there: about 11 GiB left, less than a month of hot ORDERS.
        self.assertLess(flash.free_bytes or 0, 12 * GIB)
        self.assertGreater(flash.free_bytes or 0, 10 * GIB)

    def test_it_limits_smallfiles_to_what_8k_blocks_allow(self) -> None:
        self.assertEqual(SMALLFILE_MAX_BYTES, 34359721984)

    def test_it_comes_with_each_collection(self) -> None:
        collection = DemoSource().collect(CollectState(now=NOW, history_start_at=NOW - dt.timedelta(hours=3)))

        self.assertEqual(collection.tablespaces, tablespace_space_at(last_full_snap_id(NOW)))
