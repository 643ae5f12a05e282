"""Room per tablespace and the ASM disk groups from their own views (apps.targets.oracle.room), on recorded rows:
used space from DBA_TABLESPACE_USAGE_METRICS, else DBA_FREE_SPACE; disk groups from V$ASM_DISKGROUP_STAT; a view
the user may not read degrades to the fallback with a note naming it, never to 0 free space."""

from __future__ import annotations

import copy
import unittest

from oracledb import errors as oracledb_errors

from apps.targets.base import SourceError
from apps.targets.oracle import queries
from apps.targets.oracle.room import Refused, room_from
from apps.targets.oracle.source import OracleSource
from apps.targets.rows import DataFile, DiskGroup, TablespaceSpace

from .fakes import FakeConnect, RowsCursor, load_recording
from .recorded_sources import rac_state, single_state, source
from .sql_catalog import catalog, views_and_columns

GIB = 1024**3
MIB = 1024**2


def oracle_error(text: str, code: int) -> BaseException:
    error = oracledb_errors._Error(text, code=code)
    return error.exc_type(error)


REFUSED = oracle_error("ORA-00942: table or view does not exist", 942)
NO_PRIVILEGE = oracle_error("ORA-01031: insufficient privileges", 1031)


def executed(connect: FakeConnect) -> list[str]:
    return [stem for stem, _binds in connect.cursor.executed]


class RoomStatementTests(unittest.TestCase):
    def test_each_reads_its_own_pack_free_view(self) -> None:
        expected = {"tablespace_usage": {"DBA_TABLESPACE_USAGE_METRICS"}, "free_space": {"DBA_FREE_SPACE"},
                    "asm_diskgroups": {"V$ASM_DISKGROUP_STAT"}}
        for stem, views in expected.items():
            with self.subTest(statement=stem):
                read, _columns = views_and_columns(queries._read_sql(stem))
                self.assertEqual(read, views)
                self.assertTrue(all(catalog()[view]["license"] is None for view in read))
                self.assertFalse(queries.is_pack_statement(stem))

    def test_the_disk_group_statement_reads_redundancy_and_usable_space(self) -> None:
        _views, columns = views_and_columns(queries._read_sql("asm_diskgroups"))

        for column in ("NAME", "TYPE", "TOTAL_MB", "FREE_MB", "USABLE_FILE_MB", "REQUIRED_MIRROR_FREE_MB", "STATE"):
            self.assertIn(("V$ASM_DISKGROUP_STAT", column), columns)

    def test_it_maps_a_disk_group_keeping_nulls_unknown(self) -> None:
        columns = load_recording("rac_awr")["statements"]["asm_diskgroups"][0]["columns"]
        row = [3, "reco", "CONNECTED", "EXTERN"] + [None] * (len(columns) - 4)

        [group] = queries.fetch_asm_diskgroups(RowsCursor(columns, [row]), mode="nopack")

        self.assertEqual((group.name, group.location_name, group.redundancy), ("RECO", "+RECO", "EXTERN"))
        self.assertEqual((group.free_mb, group.usable_file_mb, group.usable_file_bytes), (None, None, None))

    def test_it_keeps_the_sizes_of_a_dismounted_group_unknown(self) -> None:
        # The view gives 0 for a group the instance has not mounted: not a measurement.
        columns = load_recording("rac_awr")["statements"]["asm_diskgroups"][0]["columns"]
        row = [0, "ARCH", "DISMOUNTED", "NORMAL", 0, 0, 0, 0, 0, 4194304, 512, 4096, "19.0.0.0.0", "19.0.0.0.0"]

        [group] = queries.fetch_asm_diskgroups(RowsCursor(columns, [row]), mode="nopack")

        self.assertEqual((group.total_mb, group.free_mb, group.usable_file_mb), (None, None, None))


class RacAwrRoomTests(unittest.TestCase):
    def setUp(self) -> None:
        collecting, self.connect = source("rac_awr", "awr")
        self.collection = collecting.collect(rac_state())
        self.spaces = {space.tablespace_name: space for space in self.collection.tablespaces}

    def test_it_takes_used_space_from_the_metrics_in_blocks_without_segments_pass(self) -> None:
        # LOBS has 16 KiB blocks: USED_SPACE is in the tablespace's blocks, not bytes.
        self.assertEqual(self.spaces["LOBS"].used_bytes, 131587 * 16384)
        self.assertEqual(self.spaces["ORDERS_TS"].used_bytes, 220672 * 8192)
        self.assertIn("tablespace_usage", executed(self.connect))
        self.assertNotIn("free_space", executed(self.connect))  # every permanent tablespace was listed

    def test_it_reads_the_disk_groups_with_redundancy_and_usable_space(self) -> None:
        data, flash = self.collection.disk_groups

        self.assertEqual((data.name, data.redundancy, data.total_mb, data.free_mb, data.usable_file_mb),
                         ("DATA", "NORMAL", 2097152, 614400, 241664))
        self.assertEqual((flash.usable_file_mb, flash.required_mirror_free_mb), (-5120, 51200))
        self.assertEqual(data.state, "CONNECTED")
        self.assertFalse(any("ASM" in note for note in self.collection.notes))


class FallbackTests(unittest.TestCase):
    def test_it_falls_back_to_free_space_when_the_metrics_view_is_refused(self) -> None:
        collecting, connect = source("rac_awr", "awr", failures={"tablespace_usage": REFUSED})
        recording = load_recording("rac_awr")
        recording["statements"]["free_space"] = [{"columns": ["TABLESPACE_NAME", "FREE_BYTES", "FREE_EXTENTS"],
                                                  "rows": [["USERS", 4 * GIB, 7], ["LOBS", GIB, 1]]}]
        connect.cursor._statements = recording["statements"]

        collection = collecting.collect(rac_state())

        spaces = {space.tablespace_name: space for space in collection.tablespaces}
        self.assertEqual(spaces["USERS"].used_bytes, 5 * GIB - 4 * GIB)
        self.assertEqual(spaces["LOBS"].used_bytes, 4 * GIB - GIB)
        # ORDERS_TS has no free extent listed: its files are full, not unknown.
        self.assertEqual(spaces["ORDERS_TS"].used_bytes, spaces["ORDERS_TS"].size_bytes)
        [note] = [note for note in collection.notes if "DBA_TABLESPACE_USAGE_METRICS" in note]
        self.assertIn("ORA-00942", note)
        self.assertIn("GRANT SELECT ON SYS.DBA_TABLESPACE_USAGE_METRICS TO TIERSCOPE", note)
        self.assertLess(executed(connect).index("tablespace_usage"), executed(connect).index("free_space"))

    def test_it_keeps_used_unknown_when_both_views_are_refused(self) -> None:
        collecting, _connect = source("single_nopack", "nopack",
                                      failures={"tablespace_usage": NO_PRIVILEGE, "free_space": REFUSED})

        collection = collecting.collect(single_state())

        [space] = collection.tablespaces
        self.assertEqual((space.used_bytes, space.free_bytes), (None, None))
        self.assertEqual(space.size_bytes, 104857600)
        self.assertTrue(any("ORA-01031" in note for note in collection.notes))
        self.assertTrue(any("Used space of SALES_DATA not known" in note for note in collection.notes))

    def test_it_keeps_disk_groups_unknown_when_their_view_is_refused(self) -> None:
        collecting, _connect = source("rac_awr", "awr", failures={"asm_diskgroups": REFUSED})

        collection = collecting.collect(rac_state())

        self.assertEqual(collection.disk_groups, ())
        self.assertTrue(any("V$ASM_DISKGROUP_STAT not readable (ORA-00942)" in note
                            and "SYS.V_$ASM_DISKGROUP_STAT" in note for note in collection.notes))
        self.assertEqual(len(collection.tablespaces), 3)  # the room per tablespace still stands

    def test_it_notes_a_pluggable_database_that_sees_no_disk_group(self) -> None:
        recording = copy.deepcopy(load_recording("rac_awr"))
        recording["statements"]["asm_diskgroups"][0]["rows"] = []
        connect = FakeConnect(recording)
        collecting = OracleSource(dsn="dbhost1:1521/PDB1", user="TIERSCOPE", password="x", mode="awr",
                                  connect=connect)

        collection = collecting.collect(rac_state())

        self.assertEqual(collection.disk_groups, ())
        self.assertTrue(any("lists no disk group" in note and "+DATA, +FLASH" in note for note in collection.notes))

    def test_it_still_fails_on_any_other_error(self) -> None:
        failure = oracle_error("ORA-01013: user requested cancel of current operation", 1013)
        collecting, _connect = source("rac_awr", "awr", failures={"asm_diskgroups": failure})

        with self.assertRaises(SourceError):
            collecting.collect(rac_state())

    def test_it_reads_no_disk_group_view_without_files_on_asm(self) -> None:
        collecting, connect = source("single_nopack", "nopack")

        collection = collecting.collect(single_state())

        self.assertNotIn("asm_diskgroups", executed(connect))
        self.assertEqual(collection.disk_groups, ())
        self.assertEqual(collection.tablespaces[0].used_bytes, 8192 * 8192)


class RoomFromTests(unittest.TestCase):
    """The pure assembly both the live source and the extract use."""

    def test_it_leaves_an_offline_tablespace_unknown_on_free_space(self) -> None:
        space = TablespaceSpace("OLD_TS", 100 * MIB, None, 100 * MIB, 8192, False, offline=True)

        room = room_from([space], usage=Refused("DBA_TABLESPACE_USAGE_METRICS", "ORA-00942"), free={},
                         disk_groups=None, datafiles=[])

        self.assertIsNone(room.tablespaces[0].used_bytes)  # DBA_FREE_SPACE lists none of its extents: not "full"

    def test_it_names_a_disk_group_the_view_does_not_list(self) -> None:
        files = [DataFile("USERS", 4, "+DATA/X/users.1.1", GIB), DataFile("ARCH", 5, "+ARCH/X/arch.1.1", GIB)]

        room = room_from([], usage={}, free=None, disk_groups=(DiskGroup("DATA"),), datafiles=files)

        self.assertEqual([group.name for group in room.disk_groups], ["DATA"])
        self.assertEqual(room.notes, ("+ARCH named by data files but not in V$ASM_DISKGROUP_STAT: free space not known.",))
