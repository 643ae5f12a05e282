"""The SQL*Plus scripts: the extract is what the builder makes, the grants cover every view."""

from __future__ import annotations

import importlib.util
import re
import sys
import unittest

from apps.targets.oracle import queries

from .sql_catalog import repo_root

SCRIPTS = repo_root() / "scripts" / "oracle"


def builder():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("build_extract", SCRIPTS / "build_extract.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    # dataclasses look their module up in sys.modules while the class is built
    sys.modules.setdefault("build_extract", module)
    spec.loader.exec_module(module)
    return module


def views(stems: list[str]) -> set[str]:
    return {view for stem in stems for view in queries.views_read(queries._read_sql(stem))}


class ExtractScriptTests(unittest.TestCase):
    def setUp(self) -> None:
        self.builder = builder()
        self.script = (SCRIPTS / "tierscope_extract.sql").read_text(encoding="utf-8")

    def test_it_is_exactly_what_the_builder_produces(self) -> None:
        self.assertEqual(self.script, self.builder.build(), "run python scripts/oracle/build_extract.py")

    def test_it_runs_every_statement(self) -> None:
        for stem in queries.statement_stems():
            with self.subTest(statement=stem):
                self.assertIn(f"-- {stem}.sql -> ", self.script)

    def test_it_gates_every_line_of_switched_statements(self) -> None:
        for statement in self.builder.extract_statements():
            block = self.script.split(f"-- {statement.stem}.sql -> ", 1)[1].split("\n\n", 1)[0].splitlines()[1:]
            with self.subTest(statement=statement.stem):
                self.assertGreater(len(block), 4)
                if queries.is_pack_statement(statement.stem):
                    self.assertEqual(statement.gate, "gate_pack")
                if statement.gate:
                    self.assertTrue(all(line.startswith(f"&{statement.gate}.") for line in block))
                else:
                    self.assertFalse(any(line.startswith("&gate") for line in block))

    def test_it_switches_release_and_rac_variants(self) -> None:
        gates = {s.stem: s.gate for s in self.builder.extract_statements()}
        self.assertEqual((gates["seg_stat"], gates["seg_stat_112"]), ("gate_seg_stat", "gate_seg_stat_112"))
        self.assertEqual((gates["residency"], gates["residency_rac"]), ("gate_residency", "gate_residency_rac"))
        self.assertEqual(gates["segments"], "")
        self.assertIn(">= 1102 AND", self.script)

    def test_it_switches_pack_off_unless_mode_is_awr(self) -> None:
        self.assertIn("CASE WHEN '&mode' = 'awr' THEN '' ELSE '--' END AS gate_pack", self.script)

    def test_it_documents_every_csv_and_header(self) -> None:
        for statement in self.builder.extract_statements():
            with self.subTest(statement=statement.stem):
                self.assertIn(f"--   {statement.csv_name}  (from ", self.script)
                self.assertIn("--     " + ",".join(statement.columns) + "\n", self.script)
                self.assertIn("PROMPT " + ",".join(statement.columns) + "\n", self.script)

    def test_it_sets_every_bind_with_variable_and_exec(self) -> None:
        binds = {bind.lower() for stem in queries.statement_stems()
                 for bind in re.findall(r"(?<![:\w]):([a-z_]+)", queries._read_sql(stem))}
        for bind in binds:
            with self.subTest(bind=bind):
                self.assertRegex(self.script, rf"\nVARIABLE {bind} ")
                self.assertRegex(self.script, rf"\nEXEC (?:SELECT .* INTO )?:{bind}")

    def test_it_keeps_going_only_where_a_statement_may_be_refused(self) -> None:
        from apps.targets.oracle.room import REFUSABLE_STATEMENTS

        for statement in self.builder.extract_statements():
            block = self.script.split(f"-- {statement.stem}.sql -> ", 1)[1].split("\n\n", 1)[0].splitlines()[1:]
            with self.subTest(statement=statement.stem):
                if statement.stem in REFUSABLE_STATEMENTS:
                    # The room views fall back to others: a refusal leaves its error in the file, the rest runs.
                    self.assertEqual((block[0], block[-1]), ("WHENEVER SQLERROR CONTINUE",
                                                             "WHENEVER SQLERROR EXIT FAILURE"))
                else:
                    self.assertNotIn("WHENEVER", "\n".join(block))
        self.assertEqual(set(REFUSABLE_STATEMENTS), {"asm_diskgroups", "free_space", "tablespace_usage"})

    def test_it_shares_a_csv_between_variants(self) -> None:
        self.assertEqual(self.builder.csv_name("seg_stat_112"), "seg_stat.csv")
        self.assertEqual(self.builder.csv_name("residency_rac"), "residency.csv")


class MonitorUserScriptTests(unittest.TestCase):
    def setUp(self) -> None:
        script = (SCRIPTS / "create_monitor_user.sql").read_text(encoding="utf-8")
        both, rest = script.split("-- BEGIN awr-only grants", 1)
        awr_only = rest.split("-- END awr-only grants", 1)[0]
        pattern = r"GRANT SELECT ON SYS\.(\w+\$?\w*) TO"
        self.both = {name.replace("_$", "$", 1) for name in re.findall(pattern, both)}
        self.awr_only = {name.replace("_$", "$", 1) for name in re.findall(pattern, awr_only)}
        self.stems = queries.statement_stems()

    def test_it_grants_every_non_pack_view_in_both_modes(self) -> None:
        needed = views([s for s in self.stems if not queries.is_pack_statement(s)])
        self.assertEqual(needed - self.both, set())

    def test_it_grants_pack_views_only_in_awr_mode(self) -> None:
        pack_views = views([s for s in self.stems if queries.is_pack_statement(s)])
        self.assertEqual((pack_views - self.both) - self.awr_only, set())
        self.assertEqual(self.awr_only & self.both, set())
        self.assertTrue(self.awr_only)

    def test_it_grants_nothing_unused(self) -> None:
        self.assertEqual((self.both | self.awr_only) - views(list(self.stems)), set())


class LongColumnExtractTests(unittest.TestCase):
    def test_a_statement_with_a_long_column_is_spooled_by_a_plsql_loop_over_the_same_statement(self) -> None:
        module = builder()
        (bounds,) = [s for s in module.extract_statements() if s.stem == "tab_partition_bounds"]

        lines = module._csv_select(bounds)

        self.assertEqual(bounds.long_columns, ("HIGH_VALUE",))
        self.assertEqual(lines[:2], ["BEGIN", "  FOR q IN ("])
        self.assertIn(bounds.body, "\n".join(lines))
        text = "\n".join(lines)
        # No SQL function ever gets the LONG; PL/SQL reads it as VARCHAR2.
        self.assertIn("REPLACE(q.HIGH_VALUE, '\"', '\"\"')", text)
        self.assertNotIn("TO_CHAR(q.HIGH_VALUE)", text)
        self.assertIn("DBMS_OUTPUT.PUT_LINE", text)
