"""The safe order of a plan's steps, read back from the SQL*Plus script it exports (pure: no database)."""

from __future__ import annotations

import re
import unittest
from decimal import Decimal

from apps.tiering.plans.script import ScriptHeader, StepRow, plan_csv, plan_script
from apps.tiering.plans.steps import PlanError, PlanItem, plan_steps, plan_totals
from tests.targets.oracle.sql_catalog import views_and_columns
from tests.tiering.plans.script_reading import HINT, MOVE, REBUILD, parsed_steps


def _item(name: str, object_type: str, action: str = "move", **fields) -> PlanItem:
    fields.setdefault("to_tablespace", "FLASH01")
    fields.setdefault("to_tier", "flash")
    return PlanItem(segment_id=None, owner="APP", object_name=name, object_type=object_type, action=action, **fields)


def mixed_items() -> list[PlanItem]:
    """Given in the worst order: hints first, indexes before their tables, LOBs apart from theirs."""
    return [
        _item("ORDERS", "TABLE", "flash_cache_keep"),
        _item("ORDERS_PK", "INDEX", to_tablespace="INDX01", to_tier="fast disk"),
        _item("SYS_LOB0000012345C00003$$", "LOBSEGMENT", partitioned_parent="DOCS", lob_column="BODY",
              move_seconds=30.0, move_redo_bytes=10_000),
        _item("SALES_IX", "INDEX PARTITION", subobject_name="P2026_11"),
        _item("SALES", "TABLE", "move_partitions", hot_partitions=("P2026_11", "P2026_10", "P2026_09")),
        _item("SALES", "TABLE PARTITION", subobject_name="P2026_11"),  # also named by the advice: one step
        _item("DOCS", "TABLE", move_seconds=60.0, move_redo_bytes=5_000, flash_cache_hint="NONE",
              to_tablespace="HIST01", to_tier="hi-cap disk"),
        _item("ORDERS", "TABLE", move_seconds=12.5, move_redo_bytes=1_000, size_bytes=2 * 1024**3,
              saving_usd_per_month=Decimal("40.00"), move_cost_usd=Decimal("20.00")),
    ]


def script_of(items: list[PlanItem], *, release: str = "11.2.0.4", dbid: int = 1234567890) -> str:
    steps = plan_steps(items, release=release)
    rows = [StepRow(position=s.position, phase=s.phase, kind=s.kind, owner=s.item.owner,
                    object_name=s.item.object_name, subobject_name=s.subobject_name, object_type=s.object_type,
                    action=s.item.action, from_tablespace="", to_tablespace=s.item.to_tablespace or "",
                    to_tier=s.item.to_tier, runnable=s.runnable, ddl="\n".join(s.ddl), seconds=s.seconds,
                    redo_bytes=s.redo_bytes, size_bytes=s.size_bytes, free_after_bytes=None, shortfall_bytes=None,
                    saving_usd_per_month=s.saving_usd_per_month, move_cost_usd=s.move_cost_usd,
                    payback_days=s.payback_days) for s in steps]
    return plan_script(ScriptHeader(plan_id=7, target="demo", dbid=dbid, state="approved"), rows)


class PlanScriptOrderTests(unittest.TestCase):
    def setUp(self) -> None:
        self.script = script_of(mixed_items())
        self.head, self.steps = parsed_steps(self.script)
        self.statements = [(n, s) for n, (_, statements) in enumerate(self.steps) for s in statements]

    def test_it_stops_on_error_times_spools_and_checks_the_dbid_before_any_step(self) -> None:
        head = "\n".join(self.head)
        self.assertLess(head.index("WHENEVER SQLERROR EXIT FAILURE"), head.index("SPOOL tierscope_plan_7_demo.log"))
        self.assertIn("SET TIMING ON", self.head)
        self.assertIn("DEFINE plan_dbid = 1234567890", self.head)
        check = head[head.index("DECLARE"):head.index("\n/")]
        self.assertRegex(check, r"SELECT dbid INTO \w+ FROM v\$database;")
        self.assertRegex(check, r"IF \w+ <> &plan_dbid THEN\s+RAISE_APPLICATION_ERROR")
        # Substitution off before any name reaches SQL*Plus ('&' in a name stays as spelled).
        self.assertEqual(self.head[-1], "SET DEFINE OFF")
        self.assertTrue(self.script.rstrip().endswith("SPOOL OFF\nEXIT"))

    def test_it_moves_every_table_before_any_index_is_rebuilt(self) -> None:
        moves = [n for n, s in self.statements if MOVE.match(s)]
        rebuilds = [n for n, s in self.statements if REBUILD.match(s)]
        self.assertTrue(moves and rebuilds)
        self.assertLess(max(moves), min(rebuilds))

    def test_it_moves_a_lob_right_after_its_table(self) -> None:
        prompts = [prompt for prompt, _ in self.steps]
        docs = next(n for n, p in enumerate(prompts) if '"DOCS" (TABLE)' in p or "APP.DOCS (TABLE)" in p)
        self.assertIn("SYS_LOB0000012345C00003$$ (LOBSEGMENT)", prompts[docs + 1])
        self.assertRegex(self.steps[docs + 1][1][-1], r'MOVE LOB \("BODY"\) STORE AS \(TABLESPACE "FLASH01"\)')

    def test_it_moves_partitions_one_at_a_time(self) -> None:
        partitions = [MOVE.match(s)["part"] for _, s in self.statements if MOVE.match(s) and MOVE.match(s)["part"]]
        self.assertEqual(sorted(partitions), ["P2026_09", "P2026_10", "P2026_11"])  # P2026_11 once
        for prompt, statements in self.steps:
            if "(partition)" in prompt:
                self.assertEqual(len(statements), 1, prompt)
                self.assertEqual(statements[0].count(" PARTITION "), 1, statements)

    def test_it_sets_flash_cache_hints_last(self) -> None:
        hints = [n for n, s in self.statements if HINT.search(s)]
        others = [n for n, s in self.statements if not HINT.search(s)]
        self.assertEqual(len(hints), 2)  # ORDERS' KEEP and the NONE beside DOCS' move
        self.assertLess(max(others), min(hints))

    def test_it_numbers_every_step_of_the_whole(self) -> None:
        total = len(self.steps)
        self.assertEqual([p.split(" of ")[0] for p, _ in self.steps], [f"PROMPT step {n}" for n in range(1, total + 1)])
        self.assertTrue(all(f" of {total} " in p for p, _ in self.steps))


class PlanStepsTests(unittest.TestCase):
    def test_it_refuses_an_action_a_plan_does_not_carry_out(self) -> None:
        for action in ("keep", "not_movable", "not_worth_moving"):
            with self.assertRaisesRegex(PlanError, rf"APP\.T \(TABLE\): action '{action}' is not carried out"):
                plan_steps([_item("T", "TABLE", action)], release="19.0")

    def test_it_leaves_unknown_estimates_unknown_in_the_totals(self) -> None:
        steps = plan_steps(mixed_items(), release="19.0")
        totals = plan_totals(steps)
        self.assertIsNone(totals.seconds)  # the index and partitions have none: unknown, not a smaller sum
        self.assertIsNone(totals.redo_bytes)
        self.assertEqual(totals.unknown_seconds, totals.moves - 3)
        self.assertEqual(totals.saving_usd_per_month, Decimal("40.00"))
        known = plan_totals([s for s in steps if s.seconds is not None])
        self.assertEqual((known.seconds, known.redo_bytes), (102.5, 16_000))

    def test_it_computes_payback_from_the_one_off_cost_and_the_monthly_saving(self) -> None:
        steps = plan_steps([mixed_items()[-1]], release="19.0")
        self.assertAlmostEqual(plan_totals(steps).payback_days, 0.5 * 30.4375)

    def test_it_says_why_a_step_has_no_statement(self) -> None:
        (step,) = plan_steps([_item("T", "TABLE", to_tablespace=None, to_tier="flash")], release="19.0")
        self.assertFalse(step.runnable)
        self.assertIn("no tablespace of this target is mapped to tier flash", step.ddl[0])

    def test_it_writes_no_hint_step_for_a_keep_that_is_the_alternative_to_a_move_onto_flash(self) -> None:
        steps = plan_steps([_item("T", "TABLE", flash_cache_hint="KEEP", onto_flash=True)], release="19.0")
        self.assertEqual([s.kind for s in steps], ["move"])


class PlanExportTests(unittest.TestCase):
    def test_it_refuses_a_script_without_a_dbid(self) -> None:
        with self.assertRaisesRegex(PlanError, "DBID of target demo is not known"):
            plan_script(ScriptHeader(plan_id=1, target="demo", dbid=None, state="draft"), [])

    def test_it_keeps_a_name_with_an_ampersand_from_sqlplus_substitution(self) -> None:
        script = script_of([_item("R&D", "TABLE")])
        self.assertLess(script.index("SET DEFINE OFF"), script.index('"R&D"'))

    def test_it_writes_the_csv_with_unknown_figures_empty(self) -> None:
        item = _item("=CMD", "TABLE")
        (step,) = plan_steps([item], release="19.0")
        row = StepRow(position=1, phase=step.phase, kind=step.kind, owner="APP", object_name="=CMD", subobject_name="",
                      object_type="TABLE", action="move", from_tablespace="DATA01", to_tablespace="FLASH01",
                      to_tier="flash", runnable=True, ddl="\n".join(step.ddl), seconds=None, redo_bytes=None,
                      size_bytes=None, free_after_bytes=None, shortfall_bytes=None, saving_usd_per_month=None,
                      move_cost_usd=None, payback_days=None)
        text = plan_csv(ScriptHeader(plan_id=1, target="demo", dbid=5, state="draft"), [row])
        header, line = text.splitlines()[:2]
        self.assertTrue(header.startswith("plan_id,target,dbid,state,step,phase"))
        self.assertIn(",'=CMD,", line)
        self.assertIn(",,,,,,,,true,", line)


class DbidCheckSqlTests(unittest.TestCase):
    def test_its_query_reads_only_catalogued_views_and_columns(self) -> None:
        from apps.tiering.plans.script import read_sql

        select = re.search(r"SELECT (.+) INTO \w+ (FROM [^;]+);", read_sql("dbid_check"))
        views, columns = views_and_columns(f"SELECT {select[1]} {select[2]}")
        self.assertEqual((views, columns), ({"V$DATABASE"}, {("V$DATABASE", "DBID")}))


class ContainerStepTests(unittest.TestCase):
    """A CDB's segments: one step per PDB's segment, each switching its session to that PDB first."""

    def test_the_same_table_in_two_pdbs_is_two_steps_each_run_in_its_pdb(self):
        steps = plan_steps([_item("ORDERS", "TABLE", container="PDB1"), _item("ORDERS", "TABLE", container="PDB2")],
                           release="19.0.0.0.0")

        self.assertEqual([s.item.container for s in steps], ["PDB1", "PDB2"])
        for step in steps:
            self.assertEqual(step.ddl[0], f'ALTER SESSION SET CONTAINER = "{step.item.container}";')
            self.assertIn('ALTER TABLE "APP"."ORDERS" MOVE', step.ddl[1])
        self.assertEqual(steps[1].label, "PDB2:APP.ORDERS (TABLE)")

    def test_a_non_cdb_segment_has_no_container_switch(self):
        (step,) = plan_steps([_item("ORDERS", "TABLE")], release="19.0.0.0.0")

        self.assertFalse(any("SET CONTAINER" in line for line in step.ddl))

    def test_a_step_without_a_statement_switches_nothing(self):
        (step,) = plan_steps([_item("ORDERS", "TABLE", container="PDB1", to_tablespace=None)], release="19.0.0.0.0")

        self.assertFalse(any("SET CONTAINER" in line for line in step.ddl))


class SubpartitionStepsTests(unittest.TestCase):
    def test_each_subpartition_is_its_own_step_with_its_own_statement(self) -> None:
        items = [
            _item("ORDER_LINES_PK", "INDEX SUBPARTITION", subobject_name="P2026_11_H1"),
            _item("ORDER_LINES", "TABLE SUBPARTITION", subobject_name="P2026_11_H2"),
            _item("ORDER_LINES", "TABLE SUBPARTITION", subobject_name="P2026_11_H1"),
            _item("SYS_LOB0000090001C00005$$", "LOB SUBPARTITION", subobject_name="SYS_LOB_SUBP41",
                  partitioned_parent="ORDER_LINES", lob_column="NOTES", table_partition_name="P2026_11_H1"),
        ]

        steps = plan_steps(items, release="19.0.0.0.0")

        self.assertEqual([(s.phase, s.subobject_name) for s in steps], [
            ("partition", "P2026_11_H1"), ("partition", "SYS_LOB_SUBP41"), ("partition", "P2026_11_H2"),
            ("index", "P2026_11_H1")])
        self.assertEqual([s.ddl[-1] for s in steps], [
            'ALTER TABLE "APP"."ORDER_LINES" MOVE SUBPARTITION "P2026_11_H1" TABLESPACE "FLASH01" UPDATE INDEXES '
            'ONLINE;',
            # The LOB subpartition's move names its table subpartition, with the LOB storage clause.
            'ALTER TABLE "APP"."ORDER_LINES" MOVE SUBPARTITION "P2026_11_H1" LOB ("NOTES") STORE AS '
            '(TABLESPACE "FLASH01") UPDATE INDEXES ONLINE;',
            'ALTER TABLE "APP"."ORDER_LINES" MOVE SUBPARTITION "P2026_11_H2" TABLESPACE "FLASH01" UPDATE INDEXES '
            'ONLINE;',
            'ALTER INDEX "APP"."ORDER_LINES_PK" REBUILD SUBPARTITION "P2026_11_H1" TABLESPACE "FLASH01" ONLINE;'])
        self.assertTrue(all(step.runnable for step in steps))
