"""Every Oracle statement parsed (sqlglot, dialect oracle) and checked against catalog.json."""

from __future__ import annotations

import ast
import re
import unittest

import sqlglot
from sqlglot import exp
from sqlglot.errors import OptimizeError

from apps.targets.oracle import queries
from apps.targets.oracle.features import RELEASE_VARIANTS, SUPPORTED_RELEASES, Features, Release
from apps.targets.rows import SEGMENT_STAT_FIELDS

from .sql_catalog import catalog, qualified, repo_root, views_and_columns

_RELEASE_TEXT = re.compile(r"^(\d+)(?:\.(\d+)|c)")


def since_release(text: str) -> Release | None:
    """catalog column_since -> release; a range ("12.1-18c") counts from its upper end (the
    column is only certain there); free text without a release ("after 11.2", "verify") -> None,
    meaning "do not rely on it on any release"."""
    text = text.strip()
    if "-" in text.split(" ")[0]:
        text = text.split(" ")[0].split("-")[1]
    match = _RELEASE_TEXT.match(text)
    if match is None:
        return None
    major = int(match.group(1))
    minor = int(match.group(2) or 0)
    return (major, 0) if major >= 18 else (major, minor)


def column_usable(view: str, column: str, release: Release) -> bool:
    since = (catalog()[view].get("column_since") or {}).get(column)
    if since is None:
        return True
    lowest = since_release(since)
    return lowest is not None and lowest <= release


class CatalogReaderTests(unittest.TestCase):
    def test_it_reads_release_from_column_since_text(self) -> None:
        self.assertEqual(since_release("12.1"), (12, 1))
        self.assertEqual(since_release("18c"), (18, 0))
        self.assertEqual(since_release("12.1-18c (absent in 11.2.0.4 DDL, present in 18c DDL)"), (18, 0))
        self.assertEqual(since_release("12.1+ (absent in 11.2.0.4 DDL)"), (12, 1))
        self.assertIsNone(since_release("after 11.2 (not in 11.2 docs)"))

    def test_it_checks_the_columns_of_an_inline_view_and_a_with_clause(self) -> None:
        # Inside it (the catalog view's) and where it is read (what the derived query selects).
        derived = {
            "inline view": "SELECT f.{read} FROM (SELECT d.{inside} AS b FROM dba_data_files d) f",
            "WITH clause": "WITH f AS (SELECT d.{inside} AS b FROM dba_data_files d) SELECT g.{read} FROM f g",
        }
        for form, sql in derived.items():
            for inside, read in (("maxbytez", "b"), ("maxbytes", "c")):
                with self.subTest(form=form, inside=inside, read=read), self.assertRaises(OptimizeError):
                    views_and_columns(sql.format(inside=inside, read=read))
            with self.subTest(form=form):
                self.assertEqual(views_and_columns(sql.format(inside="maxbytes", read="b")),
                                 ({"DBA_DATA_FILES"}, {("DBA_DATA_FILES", "MAXBYTES")}))

    def test_it_rejects_a_column_the_view_does_not_have(self) -> None:
        # DBA_LOBS has no FLASH_CACHE (NOTES section 3): the checker must say so.
        with self.assertRaises(OptimizeError):
            qualified("SELECT l.flash_cache FROM dba_lobs l")


class StatementCatalogTests(unittest.TestCase):
    def test_it_finds_statement_files(self) -> None:
        self.assertGreaterEqual(len(queries.statement_stems()), 12)

    def test_it_reads_only_catalogued_views_and_columns(self) -> None:
        for stem in queries.statement_stems():
            with self.subTest(statement=stem):
                views, columns = views_and_columns(queries._read_sql(stem))
                self.assertTrue(views <= set(catalog()), f"{stem}: unknown views {views - set(catalog())}")
                for view, column in columns:
                    self.assertIn(column, catalog()[view]["columns"], f"{stem}: {view}.{column}")

    def test_it_uses_no_column_newer_than_each_supported_release(self) -> None:
        nouns = {stem for stem in queries.statement_stems()
                 if not any(stem in {v for _low, v in variants} for variants in RELEASE_VARIANTS.values())}
        nouns |= set(RELEASE_VARIANTS)
        for release in SUPPORTED_RELEASES:
            features = Features(release=release)
            for noun in sorted(nouns):
                if not features.runs(noun):  # no statement on this release (containers before 12.1)
                    continue
                stem = features.sql_file(noun)
                with self.subTest(release=release, statement=stem):
                    _views, columns = views_and_columns(queries._read_sql(stem))
                    too_new = sorted(f"{view}.{column}" for view, column in columns
                                     if not column_usable(view, column, release))
                    self.assertEqual(too_new, [], f"{stem} on {release}")

    def test_it_keeps_licensed_views_in_pack_files_only(self) -> None:
        licensed = {view for view, entry in catalog().items() if entry.get("license")}
        for stem in queries.statement_stems():
            views, _columns = views_and_columns(queries._read_sql(stem))
            with self.subTest(statement=stem):
                if queries.is_pack_statement(stem):
                    self.assertTrue(views & licensed, f"{stem} is pack_ but reads no licensed view")
                else:
                    self.assertEqual(views & licensed, set(), f"{stem} reads licensed views")

    def test_it_names_views_read_like_the_parser_does(self) -> None:
        for stem in queries.statement_stems():
            sql = queries._read_sql(stem)
            with self.subTest(statement=stem):
                self.assertEqual(set(queries.views_read(sql)), views_and_columns(sql)[0])

    def test_it_writes_statements_as_the_house_style_says(self) -> None:
        for stem in queries.statement_stems():
            sql = queries._read_sql(stem)
            with self.subTest(statement=stem):
                self.assertTrue(sql.startswith("-- Reads:"), "header comment saying what it reads")
                self.assertIn("-- Why:", sql)
                self.assertFalse(sql.rstrip().endswith(";"))
                self.assertNotRegex(sql, r"\{|%s|\?", "no Python formatting placeholders")

    def test_it_samples_every_segment_stat_field(self) -> None:
        names = sqlglot.parse_one(queries._read_sql("segstat_sample"), read="oracle").named_selects
        self.assertTrue(set(SEGMENT_STAT_FIELDS) <= set(names))
        names = sqlglot.parse_one(queries._read_sql("seg_stat"), read="oracle").named_selects
        self.assertTrue(set(SEGMENT_STAT_FIELDS) <= set(names))

    def test_it_reads_the_same_statistic_names_from_awr_and_samples(self) -> None:
        def in_list(stem: str, column: str) -> set[str]:
            tree = sqlglot.parse_one(queries._read_sql(stem), read="oracle")
            for node in tree.find_all(exp.In):
                if isinstance(node.this, exp.Column) and node.this.name.lower() == column:
                    return {literal.name for literal in node.expressions}
            raise AssertionError(f"{stem}: no IN list on {column}")

        self.assertEqual(in_list("pack_sysstat", "stat_name"), in_list("sysstat_sample", "name"))

    def test_it_uses_request_columns_for_iops(self) -> None:
        tree = sqlglot.parse_one(queries._read_sql("seg_stat"), read="oracle")
        by_alias = {select.alias.lower(): select.this.name.lower() for select in tree.selects if select.alias}
        self.assertEqual(by_alias["physical_read_requests"], "physical_read_requests_delta")
        self.assertEqual(by_alias["physical_reads_blocks"], "physical_reads_delta")


class NoInlineSqlTests(unittest.TestCase):
    ORACLE_SQL = re.compile(r"\bSELECT\b.*\bFROM\s+(?:SYS\.)?(?:DBA_|G?V\$|CDB_|AWR_)", re.IGNORECASE | re.DOTALL)

    def test_it_keeps_oracle_sql_out_of_python(self) -> None:
        offenders = []
        for path in (repo_root() / "apps").rglob("*.py"):
            tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
            for node in ast.walk(tree):
                if isinstance(node, ast.Constant) and isinstance(node.value, str) and self.ORACLE_SQL.search(node.value):
                    offenders.append(f"{path}:{node.lineno}")
        self.assertEqual(offenders, [])

    def test_it_would_notice_inline_sql(self) -> None:
        self.assertRegex("select dbid from v$database", self.ORACLE_SQL)
