"""The result of Oracle's ``DBMS_RESOURCE_MANAGER.CALIBRATE_IO``.

Two forms: the out parameters as a script prints them with DBMS_OUTPUT (``max_iops = 24002``,
``latency = 10.868`` or ``actual_latency = 11``, ``max_mbps = 175``), or a SQL*Plus row of
``DBA_RSRC_IO_CALIBRATE`` (columns ``MAX_IOPS MAX_MBPS MAX_PMBPS LATENCY NUM_PHYSICAL_DISKS``, with
``START_TIME``/``END_TIME`` when selected). When a file has both, the row wins (its latency keeps
decimals that an INTEGER out variable drops).

CALIBRATE_IO issues random reads of the database block size for its IOPS and large (1 MiB) reads for
its MB/s, so ``max_iops`` is read IOPS, ``max_mbps`` read MB/s (Oracle's MB, 2**20 bytes) and the latency
(milliseconds, of the block-sized reads) the read latency. It does not write: the write figures are
null. It does not name the block size (it is the database's ``db_block_size``): null. ``MAX_PMBPS``
(one process's MB/s) and the disk count are not tier figures. When: ``END_TIME`` when the row has it.
"""

from __future__ import annotations

import datetime as dt
import re

from apps.tiering.calibration.base import (
    CalibrationError,
    CalibrationFigures,
    CalibrationReading,
    positive,
    rounded,
)

_OUTPUT_LINE = re.compile(r"^\s*(max_iops|max_mbps|actual_latency|latency)\s*[=:]\s*(\d+(?:\.\d+)?)\s*$",
                          re.IGNORECASE | re.MULTILINE)
_TIME_FORMATS = ("%d-%b-%y %I.%M.%S.%f %p", "%d-%b-%y %I.%M.%S %p", "%Y-%m-%d %H:%M:%S.%f", "%Y-%m-%d %H:%M:%S")


def looks_like_calibrate_io(text: str) -> bool:
    return bool(re.search(r"\bmax_iops\b", text, re.IGNORECASE))


def parse_calibrate_io(text: str, *, file_name: str) -> CalibrationReading:
    """The figures of a CALIBRATE_IO result (see the module docstring)."""
    row = _table_row(text)
    values = row if row is not None else _output_lines(text)
    iops, mbps = positive(values.get("max_iops")), positive(values.get("max_mbps"))
    latency = positive(values.get("latency") or values.get("actual_latency"))
    if iops is None and mbps is None and latency is None:
        raise CalibrationError(file_name, "CALIBRATE_IO result without a max_iops, max_mbps or latency above 0 "
                                          "(did the calibration finish?)")
    figures = CalibrationFigures(
        source="calibrate_io", read_iops=rounded(iops), write_iops=None, read_mbps=rounded(mbps), write_mbps=None,
        read_latency_ms=rounded(latency, 6), write_latency_ms=None, block_size_bytes=None, jobs=None,
    )
    return CalibrationReading(figures=figures, measured_at=_time(values.get("end_time")))


def _output_lines(text: str) -> dict[str, str]:
    values: dict[str, str] = {}
    for key, value in _OUTPUT_LINE.findall(text):
        values.setdefault(key.lower(), value)  # the first one printed
    return values


def _table_row(text: str) -> dict[str, str] | None:
    """The first row under a SQL*Plus heading naming MAX_IOPS, sliced by the heading's dashes."""
    lines = text.splitlines()
    for number, heading in enumerate(lines[:-2]):
        if not re.search(r"\bMAX_IOPS\b", heading, re.IGNORECASE):
            continue
        dashes = lines[number + 1]
        spans = [match.span() for match in re.finditer(r"-+", dashes)]
        if not spans or set(dashes.strip()) - {"-", " "}:
            continue
        row = lines[number + 2]
        names = [heading[start:end].strip().lower() for start, end in spans]
        return {name: row[start:end].strip() for name, (start, end) in zip(names, spans, strict=True)}
    return None


def _time(text: str | None) -> dt.datetime | None:
    if not text:
        return None
    for pattern in _TIME_FORMATS:
        try:
            return dt.datetime.strptime(text.strip(), pattern).replace(tzinfo=dt.UTC)
        except ValueError:
            continue
    return None
