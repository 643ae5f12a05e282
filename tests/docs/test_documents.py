"""README.md and docs/*.md: short README, links that resolve, commands that exist, no development talk."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.core.management import get_commands

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
DOCUMENTS = sorted([README, *(ROOT / "docs").glob("*.md")])
README_LIMIT = 8000

LINK = re.compile(r"\]\(([^)\s]+)\)")
COMMAND = re.compile(r"manage\.py\s+([a-z_]+)")
FORBIDDEN = (
    re.compile(r"\bissue\s+\d+", re.IGNORECASE),
    re.compile(r"\.\./shared"),
    re.compile(r"(?<![\w.])/work/"),
    re.compile(r"this session", re.IGNORECASE),
    re.compile(r"tried and dropped", re.IGNORECASE),
)


def _ids(paths):
    return [str(path.relative_to(ROOT)) for path in paths]


def _anchor(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def _anchors(path: Path) -> set[str]:
    text = re.sub(r"```.*?```", "", path.read_text(), flags=re.DOTALL)
    return {_anchor(line.lstrip("#")) for line in text.splitlines() if line.startswith("#")}


def test_readme_is_at_most_8000_characters():
    assert len(README.read_text()) <= README_LIMIT


def _broken_links(path: Path) -> list[str]:
    broken = []
    for link in LINK.findall(path.read_text()):
        if re.match(r"[a-z]+:", link):
            continue
        file_part, _, anchor = link.partition("#")
        target = (path.parent / file_part).resolve() if file_part else path
        if not target.exists():
            broken.append(link)
        elif anchor and target.suffix == ".md" and anchor not in _anchors(target):
            broken.append(link)
    return broken


@pytest.mark.parametrize("path", DOCUMENTS, ids=_ids(DOCUMENTS))
def test_every_relative_link_resolves_to_a_file_and_heading(path):
    broken = _broken_links(path)
    assert not broken, f"{path.name}: broken links {broken}"


@pytest.mark.parametrize("path", DOCUMENTS, ids=_ids(DOCUMENTS))
def test_every_named_command_exists(path):
    known = set(get_commands())
    unknown = sorted({name for name in COMMAND.findall(path.read_text()) if name not in known})
    assert not unknown, f"{path.name}: manage.py commands that do not exist: {unknown}"


@pytest.mark.parametrize("path", DOCUMENTS, ids=_ids(DOCUMENTS))
def test_no_document_speaks_of_how_it_was_developed(path):
    text = path.read_text()
    found = [match.group(0) for pattern in FORBIDDEN for match in pattern.finditer(text)]
    assert not found, f"{path.name}: {found}"


def test_the_link_check_catches_a_missing_file_and_heading(tmp_path):
    (tmp_path / "a.md").write_text("# Title\n\n## Real heading\n")
    (tmp_path / "b.md").write_text(
        "[ok](a.md#real-heading) [gone](missing.md) [no heading](a.md#missing-heading) [web](https://x.org/y)\n"
    )
    assert _broken_links(tmp_path / "b.md") == ["missing.md", "a.md#missing-heading"]
    assert _anchor("Add a live target (`awr` or `nopack`)") == "add-a-live-target-awr-or-nopack"


def _tierscope_commands() -> dict[str, str]:
    from django.core.management import get_commands

    return {name: app for name, app in get_commands().items() if app.startswith("apps.")}


@pytest.mark.parametrize("name", sorted(_tierscope_commands()))
def test_the_cli_guide_says_what_each_command_says_in_its_help(name):
    """docs/cli.md is the commands' --help: a command's description and each argument's help text appear in it,
    so a help changed in the code without the guide fails here."""
    from django.core.management import load_command_class

    command = load_command_class(_tierscope_commands()[name], name)
    parser = command.create_parser("manage.py", name)
    guide = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    assert f"## {name}\n" in guide, f"docs/cli.md has no section for {name}"
    section = guide.split(f"## {name}\n", 1)[1].split("\n## ", 1)[0]
    texts = [command.help] + [action.help for action in parser._actions
                              if action.help and action.help != "==SUPPRESS==" and action.dest not in _DJANGO_OPTIONS]
    for text in texts:
        assert " ".join(text.split()) in " ".join(section.split()), f"{name}: docs/cli.md lacks {text!r}"


# Django's common options, which docs/cli.md leaves to --help.
_DJANGO_OPTIONS = {"help", "version", "verbosity", "settings", "pythonpath", "traceback", "no_color", "force_color",
                   "skip_checks"}
