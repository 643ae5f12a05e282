"""The garbage collector of a web worker (config/wsgi.py), and of the bench process that measures its pages.

A worker's start-up objects (Django, the apps, their libraries) live as long as it does: they are moved out of the
collector's sight (``gc.freeze``), so a collection scans what requests made, not the whole process.

The collection thresholds stay Python's. What made a 1,000-row API page pay for full collections (one view in
five took twice its median) was the page's rows left to the collector by reference cycles, not the thresholds:
freed when the response is sent (apps.core.db.json_key, apps.api.views.base), its p95 of 80 views went from
134 to 93 ms and the process's peak memory from 196 to 156 MB (``bench/``'s database, the API page and the target
pages in turn). Raising the thresholds had bought a similar tail for 100-300 MB more per worker.
"""

from __future__ import annotations

import gc


def web_worker_gc() -> None:
    """Move what is loaded so far out of the collector's sight (call once, after start-up)."""
    gc.collect()
    gc.freeze()
