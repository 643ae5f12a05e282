"""The garbage collector of a web worker (config/wsgi.py), and of the bench process that measures its pages.

A worker's start-up objects (Django, the apps, their libraries) live as long as it does: they are moved out of the
collector's sight (``gc.freeze``), so a collection scans what requests made, not the whole process (the API's
1,000-row page's p95 halved).

The collection thresholds stay Python's. Raised, they cut that page's tail (one view in five or so pays a full
collection and takes twice its median): at (50000, 20, 20) its p95 of 80 views went from 134 to 90 ms, at
(700, 10, 100) to 72 ms; but the process's peak memory went from 196 MB to 289 and 510 MB (``bench/``'s database,
the API page and the target pages in turn). Three web workers would pay that three times.
"""

from __future__ import annotations

import gc


def web_worker_gc() -> None:
    """Move what is loaded so far out of the collector's sight (call once, after start-up)."""
    gc.collect()
    gc.freeze()
