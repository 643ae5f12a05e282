"""The demo's ASM disk groups: DATA and FLASH, NORMAL redundancy, their free space following the demo's files."""

from __future__ import annotations

import dataclasses
import datetime as dt
import unittest

from apps.targets.base import CollectState
from apps.targets.demo.asm import disk_groups_at
from apps.targets.demo.schema import first_snap_id_from
from apps.targets.demo.source import DemoSource
from apps.targets.demo.space import data_files_at
from apps.targets.storage import location_of

SNAP = first_snap_id_from(dt.datetime(2026, 11, 20, tzinfo=dt.timezone.utc))
GIB_MB = 1024


class DemoDiskGroupTests(unittest.TestCase):
    def test_the_collection_carries_a_disk_group_for_every_group_its_files_name(self) -> None:
        now = dt.datetime(2026, 11, 20, 12, 5, tzinfo=dt.timezone.utc)
        collection = DemoSource().collect(CollectState(now=now, history_start_at=now - dt.timedelta(hours=2)))

        named = {location_of(f.file_name).name for f in collection.datafiles if f.file_name.startswith("+")}
        self.assertEqual({group.location_name for group in collection.disk_groups}, named)
        self.assertEqual(named, {"+DATA", "+FLASH"})

    def test_both_groups_are_mirrored_and_keep_a_disk_free(self) -> None:
        data, flash = disk_groups_at(data_files_at(SNAP))

        self.assertEqual((data.name, data.redundancy, flash.name, flash.redundancy),
                         ("DATA", "NORMAL", "FLASH", "NORMAL"))
        for group in (data, flash):
            self.assertEqual(group.usable_file_mb, (group.free_mb - group.required_mirror_free_mb) // 2)
            self.assertLess(group.free_mb, group.total_mb)
        # FLASH is tight: a few tens of GiB usable, so a large move that grows SOE_INDEX there is flagged.
        self.assertLess(flash.usable_file_mb, 40 * GIB_MB)
        self.assertGreater(flash.usable_file_mb, 10 * GIB_MB)

    def test_a_file_that_grows_takes_twice_its_growth_from_a_mirrored_group(self) -> None:
        files = data_files_at(SNAP)
        grown = tuple(dataclasses.replace(f, size_bytes=(f.size_bytes or 0) + 1024**3)
                      if f.file_name.startswith("+FLASH/DEMO/DATAFILE/flash_data.261") else f for f in files)

        _data, before = disk_groups_at(files)
        _data, after = disk_groups_at(grown)

        self.assertEqual(before.free_mb - after.free_mb, 2 * GIB_MB)
        self.assertEqual(before.usable_file_mb - after.usable_file_mb, GIB_MB)
