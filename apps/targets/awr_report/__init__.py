"""AWR report import: parse awrrpt.sql / awrgrpt.sql reports (HTML or text).

Public API: :func:`parse_report`, :class:`AwrReport` (:class:`AwrPeriod` for compare-period reports), :class:`AwrSegment`,
:class:`TablespaceIOStat`, :class:`AwrReportError`, :data:`MAX_REPORT_BYTES`;
``source.report_to_collection`` maps a report to the row contract.
"""

from __future__ import annotations

from apps.targets.awr_report.model import (
    MAX_REPORT_BYTES,
    AwrPeriod,
    AwrReport,
    AwrReportError,
    AwrSegment,
    TablespaceIOStat,
)
from apps.targets.awr_report.parser import decode_report, parse_report

__all__ = [
    "MAX_REPORT_BYTES",
    "AwrPeriod",
    "AwrReport",
    "AwrReportError",
    "AwrSegment",
    "TablespaceIOStat",
    "decode_report",
    "parse_report",
]
