"""Where the app's raw PostgreSQL lives: each app's statements in its one ``sql`` module (apps.core.sql says how
they are composed). Outside those homes (and migrations; the Oracle statements are apps.targets.oracle's .sql
files), no statement is written or built where it runs: what ``.execute(`` / ``.copy(`` and the readers of
apps.core.pgcopy get is a statement from a home (or one Django wrote), never a string literal, an f-string, or
text %-formatted, concatenated or .format()-ed (nor are QuerySet.extra's conditions); and no app table's name is typed in a string (the homes take it
from the model's ``_meta.db_table``)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from django.apps import apps as django_apps

APPS = Path(__file__).resolve().parent.parent / "apps"

#: The modules that hold an app's PostgreSQL: apps/<app>/sql.py.
HOMES = {path for path in APPS.glob("*/sql.py")}

#: Calls whose argument at this position is a statement (methods by name, functions by name).
STATEMENT_METHODS = {"execute": 0, "executemany": 0, "copy": 0}
STATEMENT_FUNCTIONS = {"fetch_arrays": 1, "fetch_bytes": 1, "execute_binary": 1, "RawSQL": 0}


def _checked_modules() -> list[Path]:
    return [path for path in sorted(APPS.rglob("*.py"))
            if path not in HOMES and "migrations" not in path.parts
            and not path.is_relative_to(APPS / "targets" / "oracle")]


def _written(node: ast.AST) -> bool:
    """Whether ``node`` is text written or built on the spot: a literal, an f-string, or text %-formatted,
    concatenated, .format()-ed or joined."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    if isinstance(node, ast.JoinedStr):
        return True
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod | ast.Add):
        return _written(node.left) or _written(node.right)
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr in ("format", "join", "replace") and _written(node.func.value))


def _statement_arguments(call: ast.Call) -> list[ast.AST]:
    """The statements ``call`` passes: a statement argument, or the conditions of QuerySet.extra(where=[...])."""
    if isinstance(call.func, ast.Attribute) and call.func.attr == "extra":
        return [element for keyword in call.keywords if keyword.arg == "where"
                for element in (keyword.value.elts if isinstance(keyword.value, ast.List | ast.Tuple)
                                else [keyword.value])]
    argument = _statement_argument(call)
    return [] if argument is None else [argument]


def _statement_argument(call: ast.Call) -> ast.AST | None:
    func = call.func
    name, position = None, None
    if isinstance(func, ast.Attribute) and func.attr in STATEMENT_METHODS:
        name, position = func.attr, STATEMENT_METHODS[func.attr]
    elif isinstance(func, ast.Name) and func.id in STATEMENT_FUNCTIONS:
        name, position = func.id, STATEMENT_FUNCTIONS[func.id]
    if name is None or len(call.args) <= position:
        return None
    return call.args[position]


def written_statements(source: str) -> list[tuple[int, str]]:
    """(line, call) of each statement ``source`` writes where it runs: given as written text, or through a
    name the same function (or module) bound to written text."""
    found = []
    tree = ast.parse(source)
    scopes = [tree, *(node for node in ast.walk(tree) if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef))]
    for scope in scopes:
        built = {target.id for node in ast.walk(scope) if isinstance(node, ast.Assign) and _written(node.value)
                 for target in node.targets if isinstance(target, ast.Name)}
        for node in ast.walk(scope):
            for argument in _statement_arguments(node) if isinstance(node, ast.Call) else ():
                if _written(argument) or (isinstance(argument, ast.Name) and argument.id in built):
                    found.append((node.lineno, ast.unparse(node.func)))
    return sorted(set(found))


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the docstring nodes of ``tree``'s module, classes and functions."""
    owners = [node for node in ast.walk(tree)
              if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)]
    return {id(owner.body[0].value) for owner in owners
            if owner.body and isinstance(owner.body[0], ast.Expr) and isinstance(owner.body[0].value, ast.Constant)}


def table_names_typed(source: str, tables: set[str]) -> list[tuple[int, str]]:
    """(line, table) of each string in ``source`` (docstrings aside) that names one of ``tables``."""
    pattern = re.compile(r"\b(" + "|".join(sorted(map(re.escape, tables))) + r")\b")
    tree = ast.parse(source)
    docstrings = _docstrings(tree)
    return [(node.lineno, match.group(1)) for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings
            for match in pattern.finditer(node.value)]


def _app_tables() -> set[str]:
    return {model._meta.db_table for model in django_apps.get_models(include_auto_created=True)
            if model.__module__.startswith("apps.")}


def test_no_statement_is_written_where_it_runs():
    wrong = [f"{path.relative_to(APPS.parent)}:{line} {call}(...) gets written SQL"
             for path in _checked_modules() for line, call in written_statements(path.read_text(encoding="utf-8"))]

    assert wrong == [], "move the statement to the app's sql module (see apps.core.sql):\n" + "\n".join(wrong)


def test_no_app_table_name_is_typed_outside_the_homes():
    tables = _app_tables()
    wrong = [f"{path.relative_to(APPS.parent)}:{line} names {table}"
             for path in _checked_modules() for line, table in table_names_typed(path.read_text(encoding="utf-8"),
                                                                                  tables)]

    assert wrong == [], "take the name from the model (Model._meta.db_table) in the app's sql module:\n" + "\n".join(
        wrong)


def test_the_rule_sees_sql_written_in_every_way():
    cases = {
        'cursor.execute("SELECT 1")': True,
        'cursor.execute(f"SELECT * FROM {table}")': True,
        'cursor.execute("SELECT %s" % name)': True,
        'cursor.execute("SELECT * FROM " + table, [1])': True,
        'cursor.execute("SELECT * FROM {}".format(table))': True,
        'cursor.cursor.copy(f"COPY {table} FROM STDIN")': True,
        'fetch_arrays(cursor.cursor, "SELECT 1", None, columns)': True,
        'RawSQL(f"SELECT id FROM {table}", [])': True,
        'def f():\n    sql = f"SELECT {x}"\n    cursor.execute(sql)': True,
        """rows.extra(where=['"t"."c" = ANY(%s)'], params=[ids])""": True,
        "rows.extra(where=[pg.SEGMENT_NAME_IN], params=[ids])": False,
        "cursor.execute(pg.ROLLUP_PENDING, [target_id])": False,
        "cursor.execute(pg.day_versions(from_first_day=True), params)": False,
        "fetch_arrays(cursor.cursor, sql, params, columns)": False,
        "pipe.execute()": False,
        "params = request.GET.copy()": False,
    }
    for source, wrong in cases.items():
        assert bool(written_statements(source)) is wrong, source


def test_the_rule_sees_table_names_in_strings_but_not_in_docstrings():
    tables = {"snapshots_snapshot", "tiering_recommendation"}
    assert table_names_typed('x = "DELETE FROM tiering_recommendation WHERE run_id = %s"', tables) == [
        (1, "tiering_recommendation")]
    assert table_names_typed('x = f"SELECT 1 FROM snapshots_snapshot WHERE id = {pk}"', tables) == [
        (1, "snapshots_snapshot")]
    assert table_names_typed('def f():\n    """Reads snapshots_snapshot."""', tables) == []
    assert table_names_typed('x = "snapshots_snapshot_p20260101"', tables) == []
    assert table_names_typed('x = "tiering_recommendationrun"', tables) == []
