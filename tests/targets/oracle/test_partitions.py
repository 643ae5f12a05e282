"""Composite partitioning read from the partition views (recorded rows) and added to the segments."""

from __future__ import annotations

import unittest

from apps.targets.oracle import partitions, queries
from apps.targets.partitioning import BOUND_MAX_CHARS
from apps.targets.rows import SegmentInfo, SegmentKey

from .fakes import FakeCursor


def _to_date(day: str) -> str:
    return f"TO_DATE(' {day} 00:00:00', 'SYYYY-MM-DD HH24:MI:SS', 'NLS_CALENDAR=GREGORIAN')"


_PT = ["OWNER", "OBJECT_NAME", "OBJECT_KIND", "PARTITIONING_TYPE", "SUBPARTITIONING_TYPE", "PARTITION_INTERVAL"]
_KC = ["OWNER", "OBJECT_NAME", "OBJECT_KIND", "KEY_LEVEL", "COLUMN_NAME", "COLUMN_POSITION"]
_B = ["OWNER", "OBJECT_NAME", "PARTITION_NAME", "PARTITION_POSITION", "HIGH_VALUE_LENGTH", "HIGH_VALUE"]
_SP = ["OWNER", "OBJECT_NAME", "SEGMENT_TYPE", "SUBPARTITION_NAME", "PARTITION_NAME", "TABLE_SUBPARTITION_NAME"]


def _bound(owner: str, name: str, partition: str, position: int, text: str) -> list:
    return [owner, name, partition, position, len(text), text]


#: SOE.ORDER_LINES: RANGE(ORDER_DATE) by month - HASH(ORDER_ID) x 2, its local index, a LOB column; the
#: partition added last for December was split off MAXVALUE, so its position (3) is not its order by bound.
RECORDING = {"statements": {
    "part_tables": [{"columns": _PT, "rows": [
        ["SOE", "ORDER_LINES", "TABLE", "RANGE", "HASH", None],
        ["SOE", "ORDER_LINES_IX", "INDEX", "RANGE", "HASH", None],
        ["SOE", "REGIONS", "TABLE", "HASH", "NONE", None]]}],
    "part_key_columns": [{"columns": _KC, "rows": [
        ["SOE", "ORDER_LINES", "TABLE", "PARTITION", "ORDER_DATE", 1],
        ["SOE", "ORDER_LINES", "TABLE", "SUBPARTITION", "ORDER_ID", 1]]}],
    "tab_partition_bounds": [{"columns": _B, "rows": [
        _bound("SOE", "ORDER_LINES", "P_MAX", 4, "MAXVALUE"),
        _bound("SOE", "ORDER_LINES", "P2026_11", 1, _to_date("2026-12-01")),
        _bound("SOE", "ORDER_LINES", "P2026_12", 3, _to_date("2027-01-01")),
        _bound("SOE", "ORDER_LINES", "P2026_10", 2, "TIMESTAMP' 2026-11-01 00:00:00'"),
        ["SOE", "REGIONS", "SYS_P1", 1, 0, ""],
        _bound("SOE", "WIDE", "P_LIST", 1, "'" + "X" * BOUND_MAX_CHARS + "'")]}],
    "ind_partition_bounds": [{"columns": _B, "rows": [
        _bound("SOE", "ORDER_LINES_IX", "P2026_11", 1, _to_date("2026-12-01"))]}],
    "subpartitions": [{"columns": _SP, "rows": [
        ["SOE", "ORDER_LINES", "TABLE SUBPARTITION", "P2026_11_H1", "P2026_11", "P2026_11_H1"],
        ["SOE", "ORDER_LINES", "TABLE SUBPARTITION", "P2026_12_H1", "P2026_12", "P2026_12_H1"],
        ["SOE", "ORDER_LINES_IX", "INDEX SUBPARTITION", "P2026_11_H1", "P2026_11", None],
        ["SOE", "SYS_LOB0000090001C00005$$", "LOB SUBPARTITION", "SYS_LOB_SUBP41", "SYS_LOB_P40",
         "P2026_12_H1"]]}],
}}


def _info(name: str, sub: str, kind: str, *, parent: str | None = None, lob_column: str | None = None) -> SegmentInfo:
    return SegmentInfo(key=SegmentKey("SOE", name, sub, kind), tablespace_name="SOE_DATA", bytes=65536, blocks=8,
                       partitioned_parent=parent, lob_column=lob_column)


class PartitionCatalogTests(unittest.TestCase):
    def setUp(self) -> None:
        self.cursor = FakeCursor(RECORDING)
        self.catalog = partitions.fetch_partition_catalog(self.cursor, mode="nopack")

    def test_it_runs_each_partition_statement_once(self) -> None:
        self.assertEqual(sorted(stem for stem, _binds in self.cursor.executed),
                         ["ind_partition_bounds", "part_key_columns", "part_tables", "subpartitions",
                          "tab_partition_bounds"])

    def test_a_table_subpartition_is_named_with_its_partition_and_takes_its_bound_and_order(self) -> None:
        (sub,) = partitions.annotate_segments(
            [_info("ORDER_LINES", "P2026_12_H1", "TABLE SUBPARTITION", parent="ORDER_LINES")], self.catalog)

        self.assertEqual(sub.parent_partition, "P2026_12")
        self.assertEqual(sub.partitioning, "RANGE(ORDER_DATE)-HASH(ORDER_ID)")
        self.assertEqual(sub.partition_bound, _to_date("2027-01-01"))
        # By bound: Oct (TIMESTAMP literal), Nov, Dec, MAXVALUE last, whatever PARTITION_POSITION says.
        self.assertEqual(sub.partition_order, 3)

    def test_an_index_subpartition_takes_its_index_partitions_bound(self) -> None:
        (sub,) = partitions.annotate_segments([_info("ORDER_LINES_IX", "P2026_11_H1", "INDEX SUBPARTITION")],
                                              self.catalog)

        self.assertEqual((sub.parent_partition, sub.partition_order, sub.partitioning),
                         ("P2026_11", 1, "RANGE-HASH"))

    def test_a_lob_subpartition_knows_its_lob_partition_and_the_table_subpartition_its_move_names(self) -> None:
        (lob,) = partitions.annotate_segments(
            [_info("SYS_LOB0000090001C00005$$", "SYS_LOB_SUBP41", "LOB SUBPARTITION", parent="ORDER_LINES",
                   lob_column="NOTES")], self.catalog)

        self.assertEqual((lob.parent_partition, lob.table_partition_name), ("SYS_LOB_P40", "P2026_12_H1"))
        # Ordered as the table partition its table subpartition belongs to.
        self.assertEqual(lob.partition_order, 3)

    def test_a_subpartition_of_an_interval_partitioned_table_is_said_to_be_in_one(self) -> None:
        recording = {"statements": {**RECORDING["statements"], "part_tables": [{"columns": _PT, "rows": [
            ["SOE", "ORDER_LINES", "TABLE", "RANGE", "HASH", "NUMTOYMINTERVAL(1,'MONTH')"]]}]}}
        catalog = partitions.fetch_partition_catalog(FakeCursor(recording), mode="nopack")

        (sub,) = partitions.annotate_segments(
            [_info("ORDER_LINES", "P2026_12_H1", "TABLE SUBPARTITION", parent="ORDER_LINES")], catalog)

        self.assertEqual((sub.partitioning, sub.partition_interval), ("INTERVAL(ORDER_DATE)-HASH(ORDER_ID)", True))

    def test_a_hash_partition_has_no_order(self) -> None:
        (part,) = partitions.annotate_segments([_info("REGIONS", "SYS_P1", "TABLE PARTITION")], self.catalog)

        self.assertEqual(part.partitioning, "HASH")
        self.assertIsNone(part.partition_order)

    def test_an_overlong_bound_is_not_kept_and_a_note_says_where(self) -> None:
        self.assertIsNone(self.catalog.bounds[("SOE", "WIDE", "TABLE")]["P_LIST"])
        (note,) = self.catalog.notes
        self.assertIn(f"longer than {BOUND_MAX_CHARS} characters", note)
        self.assertIn("SOE.WIDE partition P_LIST", note)

    def test_a_segment_that_is_no_partition_is_unchanged(self) -> None:
        table = _info("CUSTOMERS", "", "TABLE")
        self.assertEqual(partitions.annotate_segments([table], self.catalog), (table,))

    def test_the_statements_are_sql_files_of_the_source(self) -> None:
        for statement in (partitions.SQL_PART_TABLES, partitions.SQL_SUBPARTITIONS,
                          partitions.SQL_TAB_PARTITION_BOUNDS):
            self.assertIn(statement.noun, queries.statement_stems())
