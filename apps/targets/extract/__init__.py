"""Offline extract import: the CSV files scripts/oracle/tierscope_extract.sql spools.

Public API: :func:`read_extract` (directory or .zip -> Collection), :func:`read_segments_csv`
(a DBA_SEGMENTS listing alone, the sizes companion of an AWR report import),
:class:`ExtractError`, :class:`ExtractLimits`, :data:`FILES`, :data:`MAX_EXTRACT_BYTES`.
"""

from __future__ import annotations

from apps.targets.extract.archive import MAX_EXTRACT_BYTES, ExtractError, ExtractLimits
from apps.targets.extract.reader import FILES, read_extract, read_segments_csv

__all__ = ["FILES", "MAX_EXTRACT_BYTES", "ExtractError", "ExtractLimits", "read_extract", "read_segments_csv"]
