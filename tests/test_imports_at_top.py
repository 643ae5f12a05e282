"""Imports sit at the top of their module. One inside a function body says why, in a comment on its line or the
line just above: ``# cycle: <module>`` (an import cycle), ``# ready(): ...`` (an AppConfig needing the app
registry), ``# slow import: ...`` or ``# optional: ...`` (a library only some paths need)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCANNED = ("apps", "config")
REASON = re.compile(r"#\s*(cycle: \S|ready\(\):|slow import:|optional:)")


def _unexplained_body_imports(source: str) -> list[int]:
    """Lines of the imports inside a function body that carry no reason comment."""
    lines = source.splitlines()
    found = []

    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if in_function and isinstance(child, ast.Import | ast.ImportFrom):
                own = lines[child.lineno - 1]
                above = lines[child.lineno - 2] if child.lineno > 1 else ""
                if not (REASON.search(own) or (above.lstrip().startswith("#") and REASON.search(above))):
                    found.append(child.lineno)
            visit(child, in_function or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef))

    visit(ast.parse(source), False)
    return found


def test_every_import_in_a_function_body_says_why_it_is_not_at_the_top():
    wrong = []
    for folder in SCANNED:
        for path in sorted((ROOT / folder).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            source = path.read_text(encoding="utf-8")
            lines = source.splitlines()
            wrong += [f"{path.relative_to(ROOT)}:{line}: {lines[line - 1].strip()}"
                      for line in _unexplained_body_imports(source)]

    assert wrong == [], ("move these imports to the module's top, or say why not (# cycle: <module>, # ready(): ..., "
                         "# slow import: ..., # optional: ...):\n" + "\n".join(wrong))


def test_the_rule_sees_body_imports_and_accepts_a_reason_on_the_line_or_just_above():
    cases = {
        "import os\n": [],
        "def f():\n    import os\n": [2],
        "def f():\n    from a import b\n": [2],
        "class C:\n    def m(self):\n        if x:\n            import os\n": [4],
        "async def f():\n    import os\n": [2],
        "def f():\n    def g():\n        import os\n": [3],
        "class C:\n    import os\n": [],
        "def f():\n    from a import b  # cycle: a\n": [],
        "def f():\n    # cycle: a\n    from a import b\n": [],
        "def f():\n    # ready(): models need the app registry\n    from a.models import M\n": [],
        "def f():\n    import pulp  # slow import: CBC's bindings\n": [],
        "def f():\n    import ldap  # optional: python-ldap\n": [],
        "def f():\n    # cycle: a\n\n    from a import b\n": [4],
        "def f():\n    from a import b  # a cycle with a\n": [2],
        "def f():\n    from a import b  # cycle:\n": [2],
        "def f():\n    x = 1  # cycle: a\n    from a import b\n": [3],
    }
    for source, lines in cases.items():
        assert _unexplained_body_imports(source) == lines, source
