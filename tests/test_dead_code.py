"""No dead code: vulture, with pyproject.toml's rules and vulture_whitelist.py, finds nothing unused in apps/ and
config/ (as `make lint` runs it), and every template filter and tag, which those rules leave to the templates, is
used by a template."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TEMPLATE_DIRS = [ROOT / "templates", *sorted((ROOT / "apps").glob("*/templates"))]
REGISTERS = {"filter", "simple_tag", "inclusion_tag"}


def _vulture(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "vulture", *map(str, args)], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)


def test_vulture_finds_no_unused_code():
    result = _vulture()

    assert result.stderr == ""
    assert result.returncode == 0 and result.stdout == "", (
        "vulture finds unused code: delete it, or, if a framework, a template, the tests or the bench use it, add "
        "a rule to pyproject.toml's [tool.vulture] or its name to vulture_whitelist.py with the reason "
        "(docs/install.md):\n" + result.stdout)


def test_the_check_reports_dead_code_and_ignores_what_the_framework_calls(tmp_path):
    module = tmp_path / "sample.py"
    module.write_text(
        "from django import forms, template\n"
        "from django.contrib import admin\n"
        "register = template.Library()\n\n"
        "def never_called():\n    return 1\n\n"
        "@register.filter\ndef shown(value):\n    return value\n\n"
        "@admin.register(object)\nclass SampleAdmin(admin.ModelAdmin):\n    list_display = ['name']\n\n"
        "class SampleForm(forms.Form):\n    def clean_name(self):\n        return 'x'\n")

    result = _vulture("--config", ROOT / "pyproject.toml", module)

    assert result.returncode == 3, result.stdout + result.stderr
    assert re.findall(r"unused \w+ '(\w+)'", result.stdout) == ["never_called", "SampleForm"]


def registered_tags(source: str) -> list[str]:
    """The names a templatetags module registers: ``@register.filter`` (or ``simple_tag``, ``inclusion_tag``),
    with or without arguments (``name=`` renames), and ``register.filter("name", function)`` calls."""
    names = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef):
            for decorator in node.decorator_list:
                call = decorator if isinstance(decorator, ast.Call) else None
                func = call.func if call else decorator
                if isinstance(func, ast.Attribute) and func.attr in REGISTERS:
                    renamed = [k.value.value for k in (call.keywords if call else [])
                               if k.arg == "name" and isinstance(k.value, ast.Constant)]
                    names.append(renamed[0] if renamed else node.name)
        elif (isinstance(node, ast.Expr) and isinstance(node.value, ast.Call)
              and isinstance(node.value.func, ast.Attribute) and node.value.func.attr in REGISTERS
              and node.value.args and isinstance(node.value.args[0], ast.Constant)):
            names.append(node.value.args[0].value)
    return names


def unused_in(names: list[str], templates: str) -> list[str]:
    """The names no template applies as a filter (``|name``) or calls as a tag (``{% name``)."""
    return [name for name in names
            if not re.search(rf"(\|\s*{re.escape(name)}\b|{{%\s*{re.escape(name)}\b)", templates)]


def test_every_template_filter_and_tag_is_used_by_a_template():
    templates = "\n".join(path.read_text(encoding="utf-8") for folder in TEMPLATE_DIRS
                          for path in sorted(folder.rglob("*.html")))
    unused = [f"{path.relative_to(ROOT)}: {name}" for path in sorted((ROOT / "apps").glob("*/templatetags/*.py"))
              for name in unused_in(registered_tags(path.read_text(encoding="utf-8")), templates)]

    assert unused == [], "template filters and tags no template uses (delete them):\n" + "\n".join(unused)


def test_the_template_check_sees_each_way_of_registering_and_of_using():
    source = ("@register.filter\ndef plain(v): ...\n"
              "@register.filter(name='renamed')\ndef _renamed(v): ...\n"
              "@register.simple_tag(takes_context=True)\ndef tag(context): ...\n"
              "@register.inclusion_tag('x.html')\ndef panel(): ...\n"
              "register.filter('called', len)\n"
              "@register.filter\ndef unused_filter(v): ...\n"
              "def helper(): ...\n")

    names = registered_tags(source)

    assert sorted(names) == ["called", "panel", "plain", "renamed", "tag", "unused_filter"]
    assert unused_in(names, "{{ a|plain }} {{ b | renamed:'x' }} {% tag %} {%panel%} {{ c|called }}") == [
        "unused_filter"]
