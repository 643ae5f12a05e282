"""The static files storage: whitenoise's compressed manifest storage, with ES module imports hashed too.

The page scripts under static/js/ are ES modules that import each other by relative path
(``import { follow } from "./follow.js";``). Served from a hashed name with far-future caching, a module must
import the hashed name of what it imports, or a browser could keep running a stale copy of it; Django's
manifest storage rewrites those import and export paths when ``support_js_module_import_aggregation`` is on.
"""

from __future__ import annotations

from whitenoise.storage import CompressedManifestStaticFilesStorage


class ModuleManifestStaticFilesStorage(CompressedManifestStaticFilesStorage):
    """collectstatic writes hashed, compressed copies, and a module's imports name the hashed copies."""

    support_js_module_import_aggregation = True
