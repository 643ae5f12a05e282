"""docs/architecture.md's layout matches the tree: every top-level folder, every app and every package in an app is
named, every file or folder it names exists, and no test count is written by hand (the suite prints its own)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ARCHITECTURE = ROOT / "docs" / "architecture.md"
#: Folders a reader never opens to find code: Python's own, and the migrations every Django app has.
NOT_LISTED = {"__pycache__", "migrations"}


def layout_block() -> str:
    text = ARCHITECTURE.read_text()
    section = text.split("## Layout", 1)[1]
    match = re.search(r"```\n(.*?)```", section, re.S)
    assert match, "docs/architecture.md: no code block under '## Layout'"
    return match.group(1)


def layout_entries() -> dict[str, str]:
    """Each line's leading path (``apps/core/``) with its description, continuation lines joined."""
    entries: dict[str, str] = {}
    current = None
    for line in layout_block().splitlines():
        head = re.match(r"^(\S+/)\s*(.*)$", line)
        if head:
            current = head.group(1)
            entries[current] = head.group(2)
        elif current and line.strip():
            entries[current] += " " + line.strip()
    return entries


def tracked_top_level() -> set[str]:
    files = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    return {f.split("/", 1)[0] + "/" for f in files if "/" in f and not f.startswith(".")}


def apps() -> list[Path]:
    return sorted(p for p in (ROOT / "apps").iterdir() if (p / "apps.py").exists())


def packages(app: Path) -> list[str]:
    return sorted(p.name for p in app.iterdir()
                  if p.is_dir() and p.name not in NOT_LISTED and (p / "__init__.py").exists())


class ArchitectureLayoutTests:
    def test_every_top_level_folder_is_named(self):
        named = {path.split("/", 1)[0] + "/" for path in layout_entries()}
        if not (ROOT / ".git").exists():
            pytest.skip("not a git checkout: the tracked folders are unknown")
        assert tracked_top_level() <= named, sorted(tracked_top_level() - named)

    def test_every_app_and_every_package_in_it_is_named(self):
        entries = layout_entries()
        for app in apps():
            key = f"apps/{app.name}/"
            assert key in entries, f"{key} is not in docs/architecture.md's layout"
            missing = [name for name in packages(app) if not re.search(rf"\b{name}/", entries[key])]
            assert not missing, f"{key}: packages not named in the layout: {missing}"

    def test_every_path_and_module_it_names_exists(self):
        for path, description in layout_entries().items():
            where = ROOT / path
            assert where.exists(), f"the layout names {path}, which is not in the tree"
            if not path.startswith("apps/"):
                continue
            for name in re.findall(r"\b([a-z][a-z_]*(?:/[a-z_]+)*\.py)\b", description):
                assert list(where.rglob(name)), f"{path}: the layout names {name}, which is not there"
            for name in re.findall(r"\b([a-z_]+)/(?![a-z_])", description):
                found = (where / name).is_dir() or any(d.is_dir() for d in where.rglob(name))
                assert found, f"{path}: the layout names {name}/, which is not there"

    def test_each_app_has_its_tests_folder(self):
        for app in apps():
            assert (ROOT / "tests" / app.name).is_dir(), f"apps/{app.name} has no tests/{app.name}/"

    def test_no_test_count_is_written_by_hand(self):
        for document in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
            counts = re.findall(r"\b\d[\d,]* (?:tests|subtests)\b", document.read_text())
            assert not counts, f"{document.relative_to(ROOT)} writes a test count by hand: {counts}"
