"""What mypy.ini promises (docs/install.md): every pure module, and only those, is checked strictly; no
module of ours has its errors ignored; every ``# type: ignore`` names its error code and says why."""

from __future__ import annotations

import ast
import configparser
import re
import sys

from tests.conftest import ROOT

#: Libraries a pure module may import besides the standard library: none of them is Django or a service.
PURE_LIBRARIES = {"numpy", "lxml", "pulp", "tabulate", "_typeshed"}
STRICT_FLAG = "disallow_untyped_defs"


def _sources() -> dict[str, tuple[str, bool]]:
    """Every module of apps (migrations aside): its source and whether it is a package."""
    found = {}
    for path in sorted((ROOT / "apps").rglob("*.py")):
        if "migrations" in path.parts:
            continue
        parts = path.relative_to(ROOT).with_suffix("").parts
        package = parts[-1] == "__init__"
        found[".".join(parts[:-1] if package else parts)] = (path.read_text(encoding="utf-8"), package)
    return found


def _imports(module: str, source: str, package: bool) -> set[str]:
    """Every name ``source`` imports (``from m import x``: m and m.x), relative imports resolved."""
    here = module.split(".") if package else module.split(".")[:-1]
    names = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = here[:len(here) - node.level + 1] if node.level else []
            imported = ".".join([*base, *([node.module] if node.module else [])])
            names.add(imported)
            names.update(f"{imported}.{alias.name}" for alias in node.names)
    return names


def pure_modules(sources: dict[str, tuple[str, bool]]) -> set[str]:
    """The modules that import no Django, directly or through a module of ours (its packages included)."""

    def ours(name: str) -> str | None:
        while name and name not in sources:
            name = name.rpartition(".")[0]
        return name or None

    importers: dict[str, set[str]] = {module: set() for module in sources}  # module -> the modules that import it
    impure = set()
    for module, (source, package) in sources.items():
        parents = [".".join(module.split(".")[:n]) for n in range(1, module.count(".") + 1)]
        for name in [*_imports(module, source, package), *parents]:
            top = name.split(".")[0]
            if top == "apps":
                if (other := ours(name)) is not None and other != module:
                    importers[other].add(module)
            elif top != "__future__" and top not in sys.stdlib_module_names and top not in PURE_LIBRARIES:
                impure.add(module)
    reached = list(impure)
    while reached:  # whatever imports an impure module is impure
        for importer in importers[reached.pop()] - impure:
            impure.add(importer)
            reached.append(importer)
    return set(sources) - impure


def _strict_patterns() -> list[str]:
    config = configparser.ConfigParser()
    config.read(ROOT / "mypy.ini")
    sections = [name for name in config.sections() if config[name].getboolean(STRICT_FLAG, fallback=False)]
    assert len(sections) == 1, f"one section of strict flags, found {sections}"
    return sections[0].removeprefix("mypy-").split(",")


def _matches(module: str, pattern: str) -> bool:
    return module == pattern or (pattern.endswith(".*") and (module + ".").startswith(pattern[:-1]))


def _has_code(source: str) -> bool:
    return any(not isinstance(node, ast.Expr) or not isinstance(node.value, ast.Constant)
               for node in ast.parse(source).body)


def test_every_pure_module_and_only_those_is_checked_strictly():
    modules = _sources()
    pure = pure_modules(modules)
    patterns = _strict_patterns()
    strict = {module for module in modules if any(_matches(module, pattern) for pattern in patterns)}

    assert sorted(m for m in pure - strict if _has_code(modules[m][0])) == [], "pure: add to mypy.ini's strict section"
    assert sorted(strict - pure) == [], "imports Django (or a module that does): remove from the strict section"
    assert [p for p in patterns if not any(_matches(m, p) for m in modules)] == [], "names no module (moved?)"


def test_the_purity_rule_sees_django_through_our_own_modules_and_packages():
    sources = {"apps": ("", True), "apps.a": ("import numpy\nfrom apps.b import x\n", False),
               "apps.b": ("from django.db import models\n", False), "apps.c": ("import json\nfrom . import a\n", False),
               "apps.p": ("from django.conf import settings\n", True), "apps.p.q": ("import math\n", False)}

    assert pure_modules(sources) == {"apps"}  # a imports b (Django), c imports a, q is in p (Django)

    sources["apps.b"] = ("import math\n", False)
    assert pure_modules(sources) == {"apps", "apps.a", "apps.b", "apps.c"}


def test_no_module_of_ours_has_its_errors_ignored():
    config = configparser.ConfigParser()
    config.read(ROOT / "mypy.ini")
    ignoring = [name for name in config.sections() if config[name].getboolean("ignore_errors", fallback=False)]
    ours_untyped = [name for name in config.sections() if config[name].getboolean("ignore_missing_imports", fallback=False)
                    and re.search(r"(^|[-,])(apps|config)\.", name)]

    assert ignoring == [] and ours_untyped == []


def test_every_type_ignore_names_its_error_code_and_says_why():
    wrong = []
    for path in sorted([*(ROOT / "apps").rglob("*.py"), *(ROOT / "config").rglob("*.py")]):
        lines = path.read_text(encoding="utf-8").splitlines()
        for number, line in enumerate(lines, 1):
            if "# type: ignore" not in line:
                continue
            said = re.search(r"# type: ignore\[[a-z-]+(, [a-z-]+)*\]\s*#\s*\S", line)
            above = number > 1 and lines[number - 2].strip().startswith("#")
            if not re.search(r"# type: ignore\[[a-z-]+", line) or not (said or above):
                wrong.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")

    assert wrong == [], "a # type: ignore[code] with its reason (a comment after it, or on the line above):\n" + \
        "\n".join(wrong)
