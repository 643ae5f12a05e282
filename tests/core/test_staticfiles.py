"""collectstatic with the storage the app is served with: a page module imports the hashed copies of its imports.

A module served from its hashed name is cached for good; were its imports left unhashed, a browser could keep
running a stale copy of what it imports after an upgrade.
"""

from __future__ import annotations

import json
import posixpath
import re
from pathlib import Path, PurePosixPath

from django.core.management import call_command
from django.test import override_settings

from config.settings.base import STORAGES as SERVED_STORAGES

JS = Path(__file__).resolve().parents[2] / "static" / "js"
VENDOR = JS.parent / "vendor"
IMPORT = re.compile(r"""^(?:import|export)\b[^;]*?\bfrom\s*"(\.\.?/[^"]+)";""", re.MULTILINE)


def collect_page_scripts(root: Path) -> dict[str, str]:
    """collectstatic of static/js/ alone (as js/) into ``root`` with the served storage; its manifest's paths."""
    with override_settings(STATIC_ROOT=root, STATICFILES_DIRS=[("js", JS)],
                           STATICFILES_FINDERS=["django.contrib.staticfiles.finders.FileSystemFinder"],
                           STORAGES=SERVED_STORAGES):
        call_command("collectstatic", interactive=False, verbosity=0)
    return json.loads((root / "staticfiles.json").read_text())["paths"]


def relative_imports(name: str) -> list[str]:
    """The static names a page script imports (``js/follow.js`` for ``"./follow.js"`` in js/refresh.js)."""
    folder = posixpath.dirname(name)
    return [posixpath.normpath(posixpath.join(folder, spec)) for spec in IMPORT.findall((JS.parent / name).read_text())]


class ModuleImportHashingTests:
    def test_a_collected_module_imports_the_hashed_copy_of_what_it_imports(self, tmp_path):
        paths = collect_page_scripts(tmp_path)

        refresh = (tmp_path / paths["js/refresh.js"]).read_text()
        assert f'from "./{PurePosixPath(paths["js/follow.js"]).name}";' in refresh
        assert 'from "./follow.js";' not in refresh

    def test_every_import_of_every_page_module_is_hashed(self, tmp_path):
        paths = collect_page_scripts(tmp_path)

        modules = {name: relative_imports(name) for name in paths if name.endswith(".js")}
        assert modules["js/charts/target.js"] == ["js/charts/common.js"]  # the scan reads the imports
        for name, imported in modules.items():
            collected = (tmp_path / paths[name]).read_text()
            for target in imported:
                hashed = PurePosixPath(paths[target]).name
                assert f'/{hashed}"' in collected, f"{name}: imports {target} not as {hashed}"


class CompressionTests:
    def test_scripts_are_compressed_and_their_source_maps_are_not(self, tmp_path):
        # A source map is fetched only by a browser's developer tools; brotli at its best took half of
        # collectstatic's time on the vendored maps (make run, make test and the fault stack each collect).
        with override_settings(STATIC_ROOT=tmp_path, STATICFILES_DIRS=[("vendor", VENDOR)],
                               STATICFILES_FINDERS=["django.contrib.staticfiles.finders.FileSystemFinder"],
                               STORAGES=SERVED_STORAGES):
            call_command("collectstatic", interactive=False, verbosity=0)
        paths = json.loads((tmp_path / "staticfiles.json").read_text())["paths"]

        script, source_map = (tmp_path / paths["vendor/chart.umd.min.js"]), (tmp_path / paths["vendor/chart.umd.min.js.map"])
        assert {p.name for p in tmp_path.glob("vendor/chart.umd.min.*.js.*")} == {f"{script.name}.br", f"{script.name}.gz"}
        assert source_map.exists() and not list(tmp_path.glob("vendor/*.map.*"))
