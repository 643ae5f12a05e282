"""The DDL that moves a segment (apps.tiering.ddl.moves): tables, partitions, subpartitions, LOBs and their partitions,
indexes rebuilt after; undo and temp explained instead; names quoted and checked on each release."""

from __future__ import annotations

import unittest
from dataclasses import replace

from apps.tiering.ddl import DdlError, flash_cache_ddl, move_ddl, move_partitions_ddl
from tests.tiering.ddl_requests import R19, R112, R121, request


class MoveDdlTests(unittest.TestCase):
    def test_it_moves_a_table_online_from_12_2(self) -> None:
        script = move_ddl(request("TABLE"))
        self.assertEqual(
            script.statements, ('ALTER TABLE "SOE"."ORDERS" MOVE ONLINE TABLESPACE "FLASH_DATA";',)
        )
        self.assertEqual(len(script.comments), 1)

    def test_it_moves_a_table_offline_with_update_indexes_when_asked(self) -> None:
        script = move_ddl(request("TABLE", online=False))
        self.assertEqual(
            script.text(),
            'ALTER TABLE "SOE"."ORDERS" MOVE TABLESPACE "FLASH_DATA" UPDATE INDEXES;\n',
        )

    def test_it_rebuilds_the_indexes_after_a_table_move_before_12_2(self) -> None:
        script = move_ddl(
            request("TABLE", R121, table_indexes=(("SOE", "ORDERS_PK"), ("Reporting", "orders by date")))
        )
        self.assertEqual(
            script.text(),
            "-- before 12.2 a table MOVE is offline: DML waits, and every index becomes UNUSABLE\n"
            'ALTER TABLE "SOE"."ORDERS" MOVE TABLESPACE "FLASH_DATA";\n'
            'ALTER INDEX "SOE"."ORDERS_PK" REBUILD ONLINE;\n'
            'ALTER INDEX "Reporting"."orders by date" REBUILD ONLINE;\n',
        )

    def test_it_says_to_rebuild_indexes_when_it_does_not_know_them(self) -> None:
        script = move_ddl(request("TABLE", R112))
        self.assertEqual(script.statements, ('ALTER TABLE "SOE"."ORDERS" MOVE TABLESPACE "FLASH_DATA";',))
        self.assertIn("UNUSABLE", script.comments[-1])

    def test_it_moves_a_partition_online_from_12_1(self) -> None:
        script = move_ddl(request("TABLE PARTITION", R121, subobject_name="P_2024_06"))
        self.assertEqual(
            script.text(),
            'ALTER TABLE "SOE"."ORDERS" MOVE PARTITION "P_2024_06" TABLESPACE "FLASH_DATA" '
            "UPDATE INDEXES ONLINE;\n",
        )

    def test_it_moves_a_partition_offline_on_11_2(self) -> None:
        script = move_ddl(request("TABLE PARTITION", R112, subobject_name="P_2024_06"))
        self.assertEqual(
            script.text(),
            "-- offline partition move: DML on it waits until the move ends\n"
            'ALTER TABLE "SOE"."ORDERS" MOVE PARTITION "P_2024_06" TABLESPACE "FLASH_DATA" '
            "UPDATE INDEXES;\n",
        )

    def test_it_moves_a_subpartition(self) -> None:
        script = move_ddl(request("TABLE SUBPARTITION", subobject_name="P_2024_06_EU"))
        self.assertEqual(
            script.statements,
            (
                'ALTER TABLE "SOE"."ORDERS" MOVE SUBPARTITION "P_2024_06_EU" TABLESPACE "FLASH_DATA" '
                "UPDATE INDEXES ONLINE;",
            ),
        )

    def test_it_rebuilds_indexes_and_index_partitions(self) -> None:
        cases = {
            ("INDEX", None): 'ALTER INDEX "SOE"."ORD_CUST_IX" REBUILD TABLESPACE "FLASH_DATA" ONLINE;',
            ("INDEX PARTITION", "P1"): (
                'ALTER INDEX "SOE"."ORD_CUST_IX" REBUILD PARTITION "P1" TABLESPACE "FLASH_DATA" ONLINE;'
            ),
            ("INDEX SUBPARTITION", "SP1"): (
                'ALTER INDEX "SOE"."ORD_CUST_IX" REBUILD SUBPARTITION "SP1" TABLESPACE "FLASH_DATA" ONLINE;'
            ),
        }
        for (kind, sub), expected in cases.items():
            with self.subTest(kind=kind):
                script = move_ddl(request(kind, R112, object_name="ORD_CUST_IX", subobject_name=sub))
                self.assertEqual(script.lines, (expected,))

    def test_it_moves_a_lob_with_its_table_online(self) -> None:
        script = move_ddl(
            request("LOBSEGMENT", object_name="SYS_LOB0000073512C00004$$", partitioned_parent="ORDERS", lob_column="NOTES")
        )
        self.assertEqual(
            script.statements,
            ('ALTER TABLE "SOE"."ORDERS" MOVE ONLINE LOB ("NOTES") STORE AS (TABLESPACE "FLASH_DATA");',),
        )
        self.assertIn("LOB index moves with the LOB", script.comments[0])

    def test_it_moves_a_lob_offline_and_rebuilds_before_12_2(self) -> None:
        script = move_ddl(
            request(
                "LOBSEGMENT",
                R112,
                object_name="SYS_LOB0000073512C00004$$",
                partitioned_parent="ORDERS",
                lob_column="NOTES",
                table_indexes=(("SOE", "ORDERS_PK"),),
            )
        )
        self.assertEqual(
            script.statements,
            (
                'ALTER TABLE "SOE"."ORDERS" MOVE LOB ("NOTES") STORE AS (TABLESPACE "FLASH_DATA");',
                'ALTER INDEX "SOE"."ORDERS_PK" REBUILD ONLINE;',
            ),
        )

    def test_it_moves_a_lob_partition_or_subpartition_through_its_table_partition(self) -> None:
        cases = (
            ("LOB PARTITION", R19, "SYS_LOB0000073512C00004$$", "SYS_LOB_P123", "P_2024_06",
             'ALTER TABLE "SOE"."ORDERS" MOVE PARTITION "P_2024_06" LOB ("NOTES") STORE AS '
             '(TABLESPACE "FLASH_DATA") UPDATE INDEXES ONLINE;'),
            ("LOB SUBPARTITION", R112, "SYS_LOB1", "SYS_LOB_SUBP9", "P_2024_06_EU",
             'ALTER TABLE "SOE"."ORDERS" MOVE SUBPARTITION "P_2024_06_EU" LOB ("NOTES") STORE AS '
             '(TABLESPACE "FLASH_DATA") UPDATE INDEXES;'),
        )
        for kind, release, lob_name, lob_part, table_part, statement in cases:
            with self.subTest(kind=kind):
                script = move_ddl(request(kind, release, object_name=lob_name, subobject_name=lob_part,
                                          partitioned_parent="ORDERS", lob_column="NOTES",
                                          table_partition_name=table_part))
                self.assertEqual(script.statements, (statement,))

    def test_it_needs_the_table_partition_of_a_lob_partition(self) -> None:
        bad = request("LOB PARTITION", object_name="SYS_LOB1", subobject_name="SYS_LOB_P1",
                      partitioned_parent="ORDERS", lob_column="NOTES")
        with self.assertRaisesRegex(DdlError, "table_partition_name is needed"):
            move_ddl(bad)

    def test_a_move_and_a_hint_refuse_a_missing_input_in_the_same_words_naming_the_segment(self) -> None:
        bad = request("LOB PARTITION", object_name="SYS_LOB1", subobject_name="SYS_LOB_P1",
                      partitioned_parent="ORDERS", lob_column="NOTES")
        said = "LOB PARTITION SOE.SYS_LOB1 SYS_LOB_P1: table_partition_name is needed ("
        for build in (move_ddl, lambda one: flash_cache_ddl(one, "KEEP")):
            with self.subTest(build=build), self.assertRaises(DdlError) as refused:
                build(bad)
            self.assertTrue(str(refused.exception).startswith(said), str(refused.exception))

    def test_it_needs_the_lob_table_and_column(self) -> None:
        with self.assertRaisesRegex(DdlError, "partitioned_parent"):
            move_ddl(request("LOBSEGMENT", object_name="SYS_LOB1", lob_column="NOTES"))
        with self.assertRaisesRegex(DdlError, "lob_column"):
            move_ddl(request("LOBSEGMENT", object_name="SYS_LOB1", partitioned_parent="ORDERS"))

    def test_it_needs_a_partition_name_and_a_tablespace(self) -> None:
        with self.assertRaisesRegex(DdlError, "subobject_name"):
            move_ddl(request("TABLE PARTITION"))
        with self.assertRaisesRegex(DdlError, "target_tablespace"):
            move_ddl(request("TABLE", target_tablespace=None))

    def test_it_explains_how_to_move_undo_instead_of_ddl(self) -> None:
        # Undo segments belong to SYS: the undo rule, not the dictionary one (the rules may move undo to disk).
        script = move_ddl(request("TYPE2 UNDO", owner="SYS", object_name="_SYSSMU1_123$"))
        self.assertEqual(script.statements, ())
        self.assertIn("CREATE UNDO TABLESPACE", script.text())
        self.assertIn("ALTER SYSTEM SET UNDO_TABLESPACE", script.text())
        self.assertIn('"FLASH_DATA"', script.text())

    def test_it_explains_how_to_move_temp(self) -> None:
        script = move_ddl(request("TEMPORARY", owner="SOE", object_name="12.34"))
        self.assertEqual(script.statements, ())
        self.assertIn("CREATE TEMPORARY TABLESPACE", script.text())
        self.assertIn("DEFAULT TEMPORARY TABLESPACE", script.text())

    def test_it_does_not_move_lob_indexes_or_unknown_types(self) -> None:
        self.assertEqual(move_ddl(request("LOBINDEX", object_name="SYS_IL1$$")).statements, ())
        script = move_ddl(request("CLUSTER", object_name="C_ORDERS"))
        self.assertEqual(script.statements, ())
        self.assertIn("CLUSTER", script.comments[0])

    def test_it_quotes_hostile_names_everywhere(self) -> None:
        script = move_ddl(
            request("TABLE PARTITION", owner="app user", object_name="ORDER", subobject_name="select",
                    target_tablespace="Flash Tier 1")
        )
        self.assertEqual(
            script.statements,
            ('ALTER TABLE "app user"."ORDER" MOVE PARTITION "select" TABLESPACE "Flash Tier 1" '
             "UPDATE INDEXES ONLINE;",),
        )

    def test_it_refuses_a_double_quote_anywhere(self) -> None:
        for field in ("owner", "object_name", "target_tablespace"):
            with self.subTest(field=field):
                with self.assertRaisesRegex(DdlError, "double quotation mark"):
                    move_ddl(replace(request("TABLE"), **{field: 'X"Y'}))
        with self.assertRaisesRegex(DdlError, r"table_indexes\[1\] name"):
            move_ddl(request("TABLE", R112, table_indexes=(("SOE", 'I"X'),)))

    def test_it_refuses_a_name_too_long_for_the_release(self) -> None:
        with self.assertRaisesRegex(DdlError, "at most 30 bytes"):
            move_ddl(request("TABLE", R121, object_name="ORDERS_" + "X" * 30))

    def test_it_never_puts_a_newline_in_a_comment(self) -> None:
        script = move_ddl(request("TEMPORARY", owner="SOE", object_name="T", target_tablespace="T\nDROP"))
        self.assertTrue(all("\n" not in line for line in script.lines))
        self.assertEqual(script.statements, ())

    def test_it_moves_the_named_partitions(self) -> None:
        script = move_partitions_ddl(request("TABLE", R121), ["P_2024_06", "P_2024_05"])
        self.assertEqual(
            script.statements,
            (
                'ALTER TABLE "SOE"."ORDERS" MOVE PARTITION "P_2024_06" TABLESPACE "FLASH_DATA" UPDATE INDEXES ONLINE;',
                'ALTER TABLE "SOE"."ORDERS" MOVE PARTITION "P_2024_05" TABLESPACE "FLASH_DATA" UPDATE INDEXES ONLINE;',
            ),
        )
        with self.assertRaisesRegex(DdlError, "no partitions"):
            move_partitions_ddl(request("TABLE"), [])

    def test_it_rebuilds_the_named_index_partitions(self) -> None:
        script = move_partitions_ddl(request("INDEX", object_name="ORD_DATE_IX"), ["P9"])
        self.assertEqual(
            script.lines,
            ('ALTER INDEX "SOE"."ORD_DATE_IX" REBUILD PARTITION "P9" TABLESPACE "FLASH_DATA" ONLINE;',),
        )
        with self.assertRaisesRegex(DdlError, "needs a table or an index"):
            move_partitions_ddl(request("LOBSEGMENT"), ["P1"])
