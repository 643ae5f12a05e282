"""How the tests are laid out: a test module imports helpers, never another test module (its helpers live in a
module beside it, its shared fixtures in a conftest.py), and no test imports an app's private name."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def _imported_modules(source: str, package: tuple[str, ...]) -> list[tuple[int, str]]:
    """(line, dotted module) of every import in ``source``, relative ones resolved against ``package``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package[:len(package) - node.level + 1] if node.level else ()
            module = ".".join((*base, *([node.module] if node.module else [])))
            # ``from . import test_x`` names modules, not attributes.
            found += [(node.lineno, f"{module}.{alias.name}") for alias in node.names if not node.module]
            found.append((node.lineno, module))
    return found


def _test_modules_imported(source: str, package: tuple[str, ...]) -> list[tuple[int, str]]:
    return [(line, module) for line, module in _imported_modules(source, package)
            if module.startswith("tests.") and module.rsplit(".", 1)[-1].startswith("test_")]


def test_no_test_module_imports_another_test_module():
    wrong = []
    for path in sorted(TESTS.rglob("*.py")):
        name = path.relative_to(TESTS.parent)
        wrong += [f"{name}:{line} imports {module}" for line, module in
                  _test_modules_imported(path.read_text(encoding="utf-8"), name.with_suffix("").parts[:-1])]

    assert wrong == [], "move the helper to a module beside its tests (or a fixture to conftest.py):\n" + "\n".join(wrong)


def test_the_rule_sees_absolute_and_relative_imports_of_test_modules():
    cases = {
        "from tests.tiering.test_rules import figures": True,
        "from .test_windows import END": True,
        "from ..tiering.test_rules import figures": True,
        "from . import test_windows": True,
        "import tests.snapshots.test_windows": True,
        "from tests.tiering.recommendations.reason_checks import contradictions": False,
        "from .conftest import target": False,
        "from apps.snapshots import windows": False,
    }
    for source, wrong in cases.items():
        assert bool(_test_modules_imported(source, ("tests", "snapshots"))) is wrong, source


def test_no_test_imports_a_private_name_of_an_app():
    wrong = []
    for path in sorted(TESTS.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "apps":
                wrong += [f"{path.relative_to(TESTS.parent)}:{node.lineno} imports {node.module}.{alias.name}"
                          for alias in node.names if alias.name.startswith("_")]

    assert wrong == []
