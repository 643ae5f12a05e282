"""The storage map's input from the live source: sql/datafiles.sql on recorded rows, in both modes."""

from __future__ import annotations

import unittest

from apps.targets.oracle import queries
from apps.targets.storage import location_of

from .fakes import RowsCursor
from .recorded_sources import rac_state, single_state, source
from .sql_catalog import catalog, views_and_columns

GIB = 1024**3
COLUMNS = ["TABLESPACE_NAME", "FILE_ID", "FILE_NAME", "SIZE_BYTES", "AUTOEXTENSIBLE", "MAX_SIZE_BYTES", "FILE_TYPE"]


class DatafilesStatementTests(unittest.TestCase):
    def test_it_reads_only_pack_free_catalogued_file_views(self) -> None:
        views, columns = views_and_columns(queries._read_sql("datafiles"))

        self.assertEqual(views, {"DBA_DATA_FILES", "DBA_TEMP_FILES"})
        self.assertTrue(all(catalog()[view]["license"] is None for view in views))
        self.assertIn(("DBA_DATA_FILES", "FILE_NAME"), columns)
        self.assertIn(("DBA_TEMP_FILES", "FILE_NAME"), columns)
        self.assertFalse(queries.is_pack_statement("datafiles"))

    def test_it_leaves_disk_groups_to_their_own_views(self) -> None:
        # The catalog documents V$ASM_DISKGROUP now; the file listing stays on the dictionary's file views,
        # so a database without ASM (or a user without access to V$ASM_*) still lists its files.
        self.assertIn("V$ASM_DISKGROUP", catalog())
        self.assertNotIn("ASM", " ".join(queries.views_read(queries._read_sql("datafiles"))))

    def test_it_maps_a_row_keeping_unknowns_unknown(self) -> None:
        cursor = RowsCursor(COLUMNS, [["USERS", 4, "+DATA/X/users.1.1", None, None, None, "DATA"],
                                 ["TEMP", 1, "/u01/temp01.dbf", GIB, "NO", 0, "TEMP"]])

        users, temp = queries.fetch_datafiles(cursor, mode="nopack")

        self.assertEqual((users.size_bytes, users.autoextensible, users.max_size_bytes), (None, None, None))
        self.assertEqual((temp.file_type, temp.autoextensible, temp.size_bytes), ("TEMP", False, GIB))


class RacAwrDatafilesTests(unittest.TestCase):
    def setUp(self) -> None:
        collecting, self.connect = source("rac_awr", "awr")
        self.files = collecting.collect(rac_state()).datafiles

    def test_it_collects_data_and_temp_files(self) -> None:
        self.assertIn("datafiles", [stem for stem, _binds in self.connect.cursor.executed])
        self.assertEqual([(f.file_type, f.file_id) for f in self.files],
                         [("DATA", 1), ("DATA", 4), ("DATA", 5), ("DATA", 6), ("DATA", 7), ("TEMP", 1)])

    def test_it_keeps_sizes_and_autoextend(self) -> None:
        users = next(f for f in self.files if f.tablespace_name == "USERS")
        self.assertEqual((users.size_bytes, users.autoextensible, users.max_size_bytes), (5 * GIB, True, 34359721984))

    def test_its_file_names_give_disk_groups_and_mount_points(self) -> None:
        where = {(f.tablespace_name, location_of(f.file_name).name) for f in self.files}
        self.assertEqual(where, {("SYSTEM", "+DATA"), ("USERS", "+DATA"), ("ORDERS_TS", "+DATA"),
                                 ("ORDERS_TS", "+FLASH"), ("LOBS", "/u02/oradata"), ("TEMP", "+DATA")})


class SingleNopackDatafilesTests(unittest.TestCase):
    def test_it_collects_files_without_the_pack(self) -> None:
        collecting, connect = source("single_nopack", "nopack")

        files = collecting.collect(single_state()).datafiles

        self.assertEqual([f.tablespace_name for f in files], ["SYSTEM", "SALES_DATA", "TEMP"])
        self.assertIsNone(files[-1].size_bytes)
