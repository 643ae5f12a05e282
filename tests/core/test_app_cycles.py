"""The data path is one-way: core <- targets <- snapshots <- tiering <- dashboard <- metrics, alerts; lazy imports
included."""

from __future__ import annotations

import subprocess
import sys

from tests.conftest import ROOT, SHARED


def test_no_two_apps_import_each_other():
    result = subprocess.run([sys.executable, str(SHARED / "tools" / "app_cycles.py"), "."], cwd=ROOT,
                            capture_output=True, text=True, timeout=60)

    assert result.returncode == 0, result.stdout
    assert "app import cycles: 0" in result.stdout


def test_no_app_imports_one_after_it_on_the_path():
    # Stricter than "no cycles": the order itself (an app imports only those before it).
    import ast

    order = ["core", "targets", "snapshots", "tiering", "dashboard", "metrics", "alerts"]
    wrong = []
    for path in (ROOT / "apps").rglob("*.py"):
        if "migrations" in path.parts:
            continue
        app = path.relative_to(ROOT / "apps").parts[0]
        for node in ast.walk(ast.parse(path.read_text())):
            names = [node.module] if isinstance(node, ast.ImportFrom) and node.module else (
                [a.name for a in node.names] if isinstance(node, ast.Import) else [])
            for name in names:
                parts = name.split(".")
                if parts[0] == "apps" and len(parts) > 1 and parts[1] in order and app in order \
                        and order.index(parts[1]) > order.index(app):
                    wrong.append(f"{path.relative_to(ROOT)} imports {name}")
    assert wrong == []
