"""The demo's data files: plausible names on ASM disk groups and a mount point, adding up to its tablespaces."""

from __future__ import annotations

import datetime as dt
import unittest
from collections import Counter, defaultdict

from apps.targets.demo.schema import first_snap_id_from
from apps.targets.demo.space import data_files_at, tablespace_space_at
from apps.targets.storage import location_of

SNAP = first_snap_id_from(dt.datetime(2026, 11, 20, tzinfo=dt.timezone.utc))


class DemoDataFilesTests(unittest.TestCase):
    def test_the_files_add_up_to_each_tablespace_size(self) -> None:
        sizes: Counter[str] = Counter()
        for data_file in data_files_at(SNAP):
            if data_file.file_type == "DATA":
                sizes[data_file.tablespace_name] += data_file.size_bytes or 0
        for space in tablespace_space_at(SNAP):
            self.assertEqual(sizes[space.tablespace_name], space.size_bytes, space.tablespace_name)

    def test_each_tablespace_sits_where_the_layout_says(self) -> None:
        where: dict[str, set[str]] = defaultdict(set)
        for data_file in data_files_at(SNAP):
            where[data_file.tablespace_name].add(location_of(data_file.file_name).name)

        self.assertEqual(where["FLASH_DATA"], {"+FLASH"})
        self.assertEqual(where["SOE_DATA"], {"+DATA"})
        self.assertEqual(where["HIST_DATA"], {"/u03/oradata"})
        self.assertEqual(where["TEMP"], {"+DATA"})
        # The one tablespace spread over two locations, for the map's flag.
        self.assertEqual(where["SOE_INDEX"], {"+DATA", "+FLASH"})

    def test_it_is_deterministic_and_file_ids_are_unique_per_type(self) -> None:
        files = data_files_at(SNAP)
        self.assertEqual(files, data_files_at(SNAP))
        keys = [(f.file_type, f.file_id) for f in files]
        self.assertEqual(len(keys), len(set(keys)))

    def test_a_file_keeps_its_id_as_the_tablespace_grows(self) -> None:
        early = {f.file_name: f.file_id for f in data_files_at(SNAP)}
        later = {f.file_name: f.file_id for f in data_files_at(SNAP + 24 * 365)}
        self.assertTrue(set(early) <= set(later))
        self.assertTrue(all(later[name] == file_id for name, file_id in early.items()))



class DemoMovedDataFilesTests(unittest.TestCase):
    def test_the_files_follow_the_room_the_moves_leave(self) -> None:
        from apps.targets.demo.moves import builtin_moves
        from apps.targets.demo.source import tablespace_space_at_moved

        moves = builtin_moves(dt.datetime(2026, 11, 30, tzinfo=dt.timezone.utc))
        spaces = tablespace_space_at_moved(SNAP + 24 * 30, moves)
        sizes: Counter[str] = Counter()
        for data_file in data_files_at(SNAP + 24 * 30, spaces):
            if data_file.file_type == "DATA":
                sizes[data_file.tablespace_name] += data_file.size_bytes or 0
        for space in spaces:
            self.assertEqual(sizes[space.tablespace_name], space.size_bytes, space.tablespace_name)
