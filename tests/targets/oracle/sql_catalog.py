"""The documented Oracle catalog (../shared/oracle/catalog.json: views and their columns) and what one
statement reads of it, parsed by sqlglot (dialect oracle) and qualified against it."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

import sqlglot
from sqlglot import exp
from sqlglot.optimizer.qualify import qualify
from sqlglot.schema import MappingSchema


def repo_root() -> Path:
    for parent in Path(__file__).resolve().parents:
        if (parent / "apps").is_dir() and (parent / "tests").is_dir():
            return parent
    raise AssertionError(f"no repository root above {__file__}")


CATALOG_PATH = repo_root().parent / "shared" / "oracle" / "catalog.json"


@lru_cache(maxsize=1)
def catalog() -> dict[str, Any]:
    if not CATALOG_PATH.is_file():
        raise AssertionError(f"Oracle catalog not found at {CATALOG_PATH}")
    return json.loads(CATALOG_PATH.read_text(encoding="utf-8"))


@lru_cache(maxsize=1)
def schema() -> MappingSchema:
    # Names only: column types are not validated (sqlglot cannot parse RAW(n)/ROWID).
    return MappingSchema(
        {view: {column: "VARCHAR" for column in entry["columns"]} for view, entry in catalog().items()},
        dialect="oracle",
    )


def qualified(sql: str) -> exp.Expression:
    return qualify(sqlglot.parse_one(sql, read="oracle"), schema=schema(), dialect="oracle",
                   validate_qualify_columns=True)


def views_and_columns(sql: str) -> tuple[set[str], set[tuple[str, str]]]:
    """(views read, (view, column) pairs) of a statement, resolved through its aliases. A column of a
    derived table (an inline view's alias, or a WITH clause's name where it is read) is left out: qualify()
    has checked it against that query's select list, whose own columns are resolved here to their catalog
    views."""
    tree = qualified(sql)
    factored = {cte.alias.upper() for cte in tree.find_all(exp.CTE)}
    tables = [table for table in tree.find_all(exp.Table) if table.name.upper() not in factored]
    aliases = {table.alias_or_name.upper(): table.name.upper() for table in tables}
    derived = {query.alias.upper() for query in tree.find_all(exp.Subquery) if query.alias} | {
        table.alias_or_name.upper() for table in tree.find_all(exp.Table) if table.name.upper() in factored}
    views = {table.name.upper() for table in tables}
    columns = {(aliases[column.table.upper()], column.name.upper())
               for column in tree.find_all(exp.Column) if column.table and column.table.upper() not in derived}
    return views, columns
