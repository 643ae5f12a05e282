"""DDL beside the moves themselves (apps.tiering.ddl): quoting identifiers, releases and their features, the
flash cache hint, the DDL of each action, only real moves, and a PDB's container."""

from __future__ import annotations

import unittest

from apps.tiering import ddl
from apps.tiering.ddl import (
    FEATURE_SINCE,
    DdlError,
    ddl_for_action,
    flash_cache_ddl,
    max_identifier_bytes,
    move_ddl,
    move_partitions_ddl,
    parse_release,
    quote_identifier,
    supports,
)
from tests.tiering.ddl_requests import R19, R112, R121, request


class QuoteIdentifierTests(unittest.TestCase):
    def test_it_quotes_hostile_but_legal_names_as_spelled(self) -> None:
        cases = {
            "ORDERS": '"ORDERS"',
            "Order Lines": '"Order Lines"',
            "orders": '"orders"',
            "SELECT": '"SELECT"',
            "ORDER": '"ORDER"',
            "BIN$abc==$0": '"BIN$abc==$0"',
            "TAB#1": '"TAB#1"',
            "Größe_日本": '"Größe_日本"',
            "a'b;--": "\"a'b;--\"",
        }
        for name, quoted in cases.items():
            with self.subTest(name=name):
                self.assertEqual(quote_identifier(name), quoted)

    def test_it_refuses_an_embedded_double_quote(self) -> None:
        with self.assertRaisesRegex(DdlError, "double quotation mark"):
            quote_identifier('EVIL"; DROP TABLE X; --')

    def test_it_refuses_an_empty_name(self) -> None:
        with self.assertRaisesRegex(DdlError, "owner is empty"):
            quote_identifier("", what="owner")

    def test_it_refuses_control_characters(self) -> None:
        for name in ("A\nDROP TABLE X", "A\x00B", "A\rB"):
            with self.subTest(name=repr(name)):
                with self.assertRaisesRegex(DdlError, "control character"):
                    quote_identifier(name)

    def test_it_allows_128_bytes_from_12_2(self) -> None:
        self.assertEqual(quote_identifier("A" * 128, release="12.2.0.1"), '"' + "A" * 128 + '"')
        with self.assertRaisesRegex(DdlError, "129 bytes long; Oracle 19.0 allows at most 128"):
            quote_identifier("A" * 129, release=R19)

    def test_it_allows_30_bytes_before_12_2(self) -> None:
        self.assertEqual(quote_identifier("A" * 30, release=R121), '"' + "A" * 30 + '"')
        with self.assertRaisesRegex(DdlError, "31 bytes long; Oracle 12.1 allows at most 30"):
            quote_identifier("A" * 31, release=R121)

    def test_it_counts_bytes_not_characters(self) -> None:
        # 15 characters of 3 UTF-8 bytes each = 45 bytes > 30.
        with self.assertRaisesRegex(DdlError, "45 bytes"):
            quote_identifier("日" * 15, release=R112)
        self.assertEqual(quote_identifier("日" * 10, release=R112), '"' + "日" * 10 + '"')


class ReleaseTests(unittest.TestCase):
    def test_it_parses_release_strings(self) -> None:
        self.assertEqual(parse_release("19.0.0.0.0"), (19, 0))
        self.assertEqual(parse_release("12.2.0.1.0"), (12, 2))
        self.assertEqual(parse_release("23ai"), (23, 0))
        self.assertEqual(parse_release((11, 2)), (11, 2))

    def test_it_rejects_garbage_releases(self) -> None:
        for bad in ("", "latest", (12,), (12, "2")):
            with self.subTest(bad=bad):
                with self.assertRaises(DdlError):
                    parse_release(bad)  # type: ignore[arg-type]

    def test_it_keeps_online_rules_in_one_table(self) -> None:
        self.assertEqual(FEATURE_SINCE["online_table_move"], (12, 2))
        self.assertEqual(FEATURE_SINCE["online_partition_move"], (12, 1))
        self.assertFalse(supports("online_table_move", R121))
        self.assertTrue(supports("online_table_move", "12.2.0.1"))
        self.assertTrue(supports("online_partition_move", R121))
        self.assertFalse(supports("online_partition_move", R112))
        self.assertEqual(max_identifier_bytes(R112), 30)

    def test_it_rejects_an_unknown_feature(self) -> None:
        with self.assertRaisesRegex(DdlError, "unknown feature"):
            supports("time_travel", R19)


class FlashCacheDdlTests(unittest.TestCase):
    def test_it_sets_the_hint_for_each_segment_type(self) -> None:
        lob = {"object_name": "SYS_LOB1", "partitioned_parent": "ORDERS", "lob_column": "NOTES",
               "table_partition_name": "P1"}
        cases = [
            (request("TABLE"), 'ALTER TABLE "SOE"."ORDERS" STORAGE (FLASH_CACHE KEEP);'),
            (request("TABLE PARTITION", subobject_name="P1"),
             'ALTER TABLE "SOE"."ORDERS" MODIFY PARTITION "P1" STORAGE (FLASH_CACHE KEEP);'),
            (request("INDEX", object_name="IX"), 'ALTER INDEX "SOE"."IX" STORAGE (FLASH_CACHE KEEP);'),
            (request("INDEX PARTITION", object_name="IX", subobject_name="P1"),
             'ALTER INDEX "SOE"."IX" MODIFY PARTITION "P1" STORAGE (FLASH_CACHE KEEP);'),
            (request("LOBSEGMENT", **lob),
             'ALTER TABLE "SOE"."ORDERS" MODIFY LOB ("NOTES") (STORAGE (FLASH_CACHE KEEP));'),
            (request("LOB PARTITION", subobject_name="SYS_LOB_P1", **lob),
             'ALTER TABLE "SOE"."ORDERS" MODIFY PARTITION "P1" LOB ("NOTES") (STORAGE (FLASH_CACHE KEEP));'),
            (request("LOB SUBPARTITION", subobject_name="SYS_LOB_SP1", **lob),
             'ALTER TABLE "SOE"."ORDERS" MODIFY SUBPARTITION "P1" LOB ("NOTES") (STORAGE (FLASH_CACHE KEEP));'),
        ]
        for req, expected in cases:
            with self.subTest(kind=req.object_type):
                self.assertEqual(flash_cache_ddl(req, "KEEP").lines, (expected,))

    def test_it_writes_none_and_the_exadata_hint(self) -> None:
        self.assertEqual(
            flash_cache_ddl(request("TABLE"), "none", attribute="CELL_FLASH_CACHE").lines,
            ('ALTER TABLE "SOE"."ORDERS" STORAGE (CELL_FLASH_CACHE NONE);',),
        )

    def test_it_explains_subpartitions_it_cannot_change(self) -> None:
        for kind in ("TABLE SUBPARTITION", "INDEX SUBPARTITION"):
            with self.subTest(kind=kind):
                script = flash_cache_ddl(request(kind, subobject_name="SP1"), "KEEP")
                self.assertEqual(script.statements, ())
                self.assertIn("cannot change the storage", script.comments[0])

    def test_it_leaves_dictionary_undo_and_temp_alone(self) -> None:
        for req in (request("TABLE", owner="SYS"), request("TYPE2 UNDO"), request("TEMPORARY")):
            with self.subTest(kind=req.object_type, owner=req.owner):
                self.assertEqual(flash_cache_ddl(req, "NONE").statements, ())

    def test_it_rejects_bad_hints(self) -> None:
        with self.assertRaisesRegex(DdlError, "KEEP, NONE or DEFAULT"):
            flash_cache_ddl(request("TABLE"), "RECYCLE")
        with self.assertRaisesRegex(DdlError, "CELL_FLASH_CACHE"):
            flash_cache_ddl(request("TABLE"), "KEEP", attribute="BUFFER_POOL")


class DdlForActionTests(unittest.TestCase):
    def test_it_maps_each_advice_action(self) -> None:
        table = request("TABLE")
        self.assertEqual(ddl_for_action(table, "move"), move_ddl(table))
        self.assertEqual(ddl_for_action(table, "flash_cache_keep"), flash_cache_ddl(table, "KEEP"))
        self.assertEqual(ddl_for_action(table, "flash_cache_none"), flash_cache_ddl(table, "NONE"))
        self.assertEqual(ddl_for_action(table, "keep").statements, ())
        self.assertEqual(
            ddl_for_action(table, "move_partitions", hot_partitions=["P9"]),
            move_partitions_ddl(table, ["P9"]),
        )

    def test_it_rejects_an_unknown_action(self) -> None:
        with self.assertRaisesRegex(DdlError, "unknown action"):
            ddl_for_action(request("TABLE"), "shred")


class OnlyRealMovesTests(unittest.TestCase):
    """Issue 15, item 9: DDL only for moves Oracle makes, and every hint the reasons give comes with its DDL."""

    def test_it_says_why_a_segment_is_not_movable_and_writes_no_statement(self) -> None:
        cases = {
            "dictionary": request("TABLE", owner="SYS", object_name="IDL_UB2$"),
            "cluster": request("CLUSTER", owner="SYS", object_name="C_OBJ#"),
            "aq": request("TABLE", object_name="AQ$_ORDERS_QT_S"),
            "lob index": request("INDEX", object_name="SYS_IL0000087654C00003$$"),
            "truncated": request("TABLE", object_name="WRH$_ACTIVE_SESSION_HISTO", name_truncated=True),
        }
        for name, case in cases.items():
            with self.subTest(case=name):
                script = ddl_for_action(case, "not_movable")
                self.assertEqual(script.statements, ())
                self.assertTrue(script.comments)
                self.assertEqual(move_ddl(case), script)

    def test_a_truncated_name_never_gets_a_move_statement(self) -> None:
        script = move_ddl(request("TABLE", object_name="WRH$_ACTIVE_SESSION_HISTO", name_truncated=True))
        self.assertEqual(script.statements, ())
        self.assertIn("cut short", script.text())

    def test_a_move_with_a_none_hint_writes_both_statements(self) -> None:
        # INVENTORIES in the demo: moved to flash, FLASH_CACHE NONE advised; the DDL held only the MOVE.
        table = request("TABLE", object_name="INVENTORIES")
        script = ddl_for_action(table, "move", flash_cache_hint="NONE", onto_flash=True)
        self.assertEqual(script.statements, move_ddl(table).statements + flash_cache_ddl(table, "NONE").statements)

    def test_a_keep_hint_beside_a_move_to_flash_is_an_alternative_not_a_second_step(self) -> None:
        table = request("TABLE")
        script = ddl_for_action(table, "move", flash_cache_hint="KEEP", onto_flash=True)
        self.assertEqual(script.statements, move_ddl(table).statements)
        self.assertIn("-- instead of the move", script.text())
        self.assertIn('-- ALTER TABLE "SOE"."ORDERS" STORAGE (FLASH_CACHE KEEP);', script.text())

    def test_a_keep_hint_beside_a_move_to_disk_is_a_second_step(self) -> None:
        table = request("TABLE")
        script = ddl_for_action(table, "move", flash_cache_hint="KEEP", onto_flash=False)
        self.assertEqual(script.statements, move_ddl(table).statements + flash_cache_ddl(table, "KEEP").statements)


class ContainerTests(unittest.TestCase):
    """A PDB segment's statements run in its PDB: the switch comes first, quoted as the dictionary spells it."""

    def test_a_move_in_a_pdb_switches_the_session_to_it_first(self) -> None:
        request = ddl.DdlRequest(owner="SOE", object_name="ORDERS", object_type="TABLE", release="19.0.0.0.0",
                                 target_tablespace="FLASH")

        script = ddl.in_container(ddl.ddl_for_action(request, "move"), "CDB$ROOT")

        self.assertEqual(script.statements[0], 'ALTER SESSION SET CONTAINER = "CDB$ROOT";')
        self.assertTrue(script.statements[1].startswith('ALTER TABLE "SOE"."ORDERS" MOVE'))

    def test_a_container_name_oracle_cannot_have_is_refused(self) -> None:
        script = ddl.DdlScript(('ALTER INDEX "A"."I" REBUILD;',))

        with self.assertRaises(ddl.DdlError):
            ddl.in_container(script, 'PDB"1')

    def test_a_non_cdb_script_is_left_as_it_is(self) -> None:
        script = ddl.DdlScript(('ALTER INDEX "A"."I" REBUILD;',))

        self.assertIs(ddl.in_container(script, ""), script)
