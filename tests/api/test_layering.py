"""apps.api sits on top of the data path (core <- targets <- snapshots <- tiering <- dashboard): it may import
them all, and nothing imports it."""

from __future__ import annotations

import ast

from django.conf import settings

from tests.conftest import ROOT


def test_no_other_app_imports_the_api():
    wrong = []
    for path in (ROOT / "apps").rglob("*.py"):
        if path.relative_to(ROOT / "apps").parts[0] == "api" or "migrations" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            names = [node.module] if isinstance(node, ast.ImportFrom) and node.module else (
                [a.name for a in node.names] if isinstance(node, ast.Import) else [])
            wrong += [f"{path.relative_to(ROOT)} imports {name}" for name in names
                      if name == "apps.api" or name.startswith("apps.api.")]
    assert wrong == []


def test_the_api_is_installed_after_the_apps_it_reads():
    apps = settings.INSTALLED_APPS
    assert apps.index("apps.api") > max(apps.index(f"apps.{name}") for name in
                                        ("core", "targets", "snapshots", "tiering", "dashboard"))
