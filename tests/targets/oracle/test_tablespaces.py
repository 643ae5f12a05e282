"""Room per tablespace from the live source: sql/tablespaces.sql on recorded rows, in both modes."""

from __future__ import annotations

import unittest

from apps.targets.oracle import queries

from .fakes import RowsCursor, load_recording
from .recorded_sources import rac_state, single_state, source
from .sql_catalog import catalog, views_and_columns

GIB = 1024**3


class TablespaceStatementTests(unittest.TestCase):
    def test_it_reads_only_pack_free_catalogued_views(self) -> None:
        views, columns = views_and_columns(queries._read_sql("tablespaces"))

        self.assertEqual(views, {"DBA_TABLESPACES", "DBA_DATA_FILES"})  # used space: oracle.room, no DBA_SEGMENTS pass
        self.assertTrue(all(catalog()[view]["license"] is None for view in views))
        self.assertIn(("DBA_DATA_FILES", "MAXBYTES"), columns)
        self.assertIn(("DBA_DATA_FILES", "AUTOEXTENSIBLE"), columns)
        self.assertFalse(queries.is_pack_statement("tablespaces"))

    def test_it_keeps_a_null_figure_unknown(self) -> None:
        columns = load_recording("rac_awr")["statements"]["tablespaces"][0]["columns"]
        cursor = RowsCursor(columns, [["NEW_TS", 8192, "PERMANENT", None, None, None, None]])

        [space] = queries.fetch_tablespaces(cursor, mode="nopack")

        self.assertEqual((space.size_bytes, space.used_bytes, space.max_size_bytes), (None, None, None))
        self.assertIsNone(space.free_bytes)
        self.assertIsNone(space.autoextensible)


class RacAwrTablespaceTests(unittest.TestCase):
    def setUp(self) -> None:
        collecting, self.connect = source("rac_awr", "awr")
        self.spaces = {space.tablespace_name: space for space in collecting.collect(rac_state()).tablespaces}

    def test_it_collects_every_permanent_tablespace_by_name(self) -> None:
        self.assertEqual(list(self.spaces), ["LOBS", "ORDERS_TS", "USERS"])
        self.assertIn("tablespaces", [stem for stem, _binds in self.connect.cursor.executed])

    def test_it_reads_size_used_free_and_max(self) -> None:
        users = self.spaces["USERS"]
        self.assertEqual((users.size_bytes, users.used_bytes, users.max_size_bytes), (5 * GIB, 1258291200, 32 * GIB))
        self.assertEqual(users.free_bytes, 5 * GIB - 1258291200)
        self.assertTrue(users.autoextensible)

    def test_it_keeps_a_fixed_tablespace_at_its_size(self) -> None:
        orders = self.spaces["ORDERS_TS"]
        self.assertFalse(orders.autoextensible)
        self.assertEqual(orders.max_size_bytes, orders.size_bytes)

    def test_it_keeps_each_tablespace_block_size(self) -> None:
        self.assertEqual((self.spaces["LOBS"].block_size_bytes, self.spaces["USERS"].block_size_bytes), (16384, 8192))


class SingleNopackTablespaceTests(unittest.TestCase):
    def test_it_collects_room_without_the_pack(self) -> None:
        collecting, connect = source("single_nopack", "nopack")

        [space] = collecting.collect(single_state()).tablespaces

        self.assertEqual((space.tablespace_name, space.used_bytes), ("SALES_DATA", 67108864))
        self.assertFalse(any(stem.startswith("pack_") for stem, _binds in connect.cursor.executed))
