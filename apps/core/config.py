"""App tunables: one dict of defaults, overridable by settings.TIERSCOPE."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from django.conf import settings

CONFIG_DEFAULTS: dict[str, Any] = {
    # First collection of a live target reads this much AWR history (AWR keeps 8 days by default).
    "HISTORY_DAYS": 8,
    # Raw per-snapshot rows are kept this long; rollups and recommendations keep their own history.
    # 35 days covers a monthly window plus a margin for late imports.
    "RETENTION_DAYS": 35,
    # Recommendation window and statistic, as the design's defaults.
    "WINDOW_DAYS": 7,
    "STATISTIC": "p95",
    # Bounded retries for transient target errors (network, timeouts).
    "COLLECT_MAX_RETRIES": 3,
    "COLLECT_RETRY_BACKOFF_S": 30,
    # Oracle round-trip limit.
    "ORACLE_CALL_TIMEOUT_MS": 120_000,
    # Whole snapshots per ingest transaction, up to this many segment-stat rows (bench/run.py).
    "COLLECT_BATCH_ROWS": 50_000,
    # Upload bound for AWR reports and extracts.
    "MAX_UPLOAD_BYTES": 50 * 1024 * 1024,
}


@lru_cache(maxsize=1)
def get_config() -> dict[str, Any]:
    return {**CONFIG_DEFAULTS, **getattr(settings, "TIERSCOPE", {})}
