"""Oracle ORION output: the ``<test>_summary.txt`` of every version, and the ``_iops.csv``,
``_mbps.csv`` and ``_lat.csv`` matrices.

The summary's figures and what we make of them:

* ``Maximum Small IOPS=N`` (small random IOs, ``Small IO size: 8 KB`` by default) are split by the run's
  write share, ``Write: W%`` (``Writes:`` in later versions; else ``-write W`` on its command line):
  read IOPS N x (100 - W) %, write IOPS N x W %. ORION's default is ``-write 0``, so a summary that names
  no share and shows no write latency is read-only; one that shows write latencies but no share is
  refused. A direction with a share of 0 is null.
* ``Maximum Large MBPS=M`` (large IOs, 1 MiB by default) is split the same way; ORION's MB is 2**20 bytes.
* ``Minimum Small Latency`` is the single-block latency at the lightest load, what a tier's nominal
  read latency means. Its unit: ``usecs`` (11.2 and later), ``msecs``, or none at all (10.2 and 11.1,
  milliseconds). It is the read latency of a read-only run (the write latency of a write-only one). In
  a mixed run it is of reads and writes together: from 11.2 the lines after it give that point's
  ``Small Read Latency: avg=`` and ``Small Write Latency: avg=``, which we take per direction; an
  older version's mixed run does not say which is which: both null.
* Block size: the small IO size (the IOPS' size); the large one when the run measured only MB/s.
* When: the ``<test>_YYYYMMDD_HHMM`` stamp ORION puts in its file names and prints when it starts
  (the host's clock, taken as UTC). Jobs: null (ORION varies its outstanding IOs, not jobs).

The matrices hold one figure per data point (rows: outstanding large IOs; columns: small): ``_iops.csv``
gives the best small IOPS as read IOPS (the matrix does not say the write share: upload the summary for a
run with writes), ``_mbps.csv`` the best large MB/s, ``_lat.csv`` the least small latency (milliseconds
in 11.1; microseconds when its header says so, as 12c's do).
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

_NUMBER = r"(\d+(?:\.\d+)?)"
_MAX_IOPS = re.compile(rf"Maximum\s+Small\s+IOPS\s*=\s*{_NUMBER}", re.IGNORECASE)
_MAX_MBPS = re.compile(rf"Maximum\s+Large\s+MBPS\s*=\s*{_NUMBER}", re.IGNORECASE)
_MIN_LATENCY = re.compile(rf"Minimum\s+Small\s+Latency\s*=\s*{_NUMBER}\s*(usecs|msecs|us|ms)?", re.IGNORECASE)
_SPLIT_LATENCY = re.compile(rf"Small\s+(Read|Write)\s+Latency:\s*avg\s*=\s*{_NUMBER}\s*(us|ms)", re.IGNORECASE)
_NEXT_FIGURE = re.compile(r"(Maximum|Minimum)\s+(Small|Large)", re.IGNORECASE)
_WRITE_SHARE = re.compile(rf"^\s*Writes?\s*:\s*{_NUMBER}\s*%", re.IGNORECASE | re.MULTILINE)
_WRITE_OPTION = re.compile(rf"-write\s+{_NUMBER}", re.IGNORECASE)
_SMALL_SIZE = re.compile(rf"Small\s+IO\s+size\s*:\s*{_NUMBER}\s*KB", re.IGNORECASE)
_LARGE_SIZE = re.compile(rf"Large\s+IO\s+size\s*:\s*{_NUMBER}\s*KB", re.IGNORECASE)
_SMALL_OPTION = re.compile(rf"-size_small\s+{_NUMBER}", re.IGNORECASE)
_LARGE_OPTION = re.compile(rf"-size_large\s+{_NUMBER}", re.IGNORECASE)
_STAMP = re.compile(r"_(\d{8})_(\d{4})(?:_|\.|\s|$)", re.MULTILINE)
_MATRIX_KINDS = ("iops", "mbps", "lat")


def looks_like_orion(text: str) -> bool:
    return bool(_MAX_IOPS.search(text) or _MAX_MBPS.search(text) or _MIN_LATENCY.search(text)
                or text.lstrip().lower().startswith("large/small"))


def parse_orion(text: str, *, file_name: str) -> CalibrationReading:
    """The figures of an ORION summary or matrix (see the module docstring)."""
    if text.lstrip().lower().startswith("large/small") or "\nlarge/small," in text.lower():
        figures = _matrix(text, file_name=file_name)
    else:
        figures = _summary(text, file_name=file_name)
    return CalibrationReading(figures=figures, measured_at=_stamp(file_name) or _stamp(text))


def _summary(text: str, *, file_name: str) -> CalibrationFigures:
    if len(_MAX_IOPS.findall(text)) > 1 or len(_MAX_MBPS.findall(text)) > 1:
        raise CalibrationError(file_name, "more than one ORION run in one file; give one run's summary")
    iops_match, mbps_match = _MAX_IOPS.search(text), _MAX_MBPS.search(text)
    iops = positive(iops_match.group(1)) if iops_match else None
    mbps = positive(mbps_match.group(1)) if mbps_match else None
    if iops is None and mbps is None:
        raise CalibrationError(file_name, "ORION output without a 'Maximum Small IOPS' or 'Maximum Large MBPS'")
    share = _write_share(text, file_name=file_name)
    read_latency, write_latency = _latencies(text, share)
    small, large = _kilobytes(text, _SMALL_SIZE, _SMALL_OPTION), _kilobytes(text, _LARGE_SIZE, _LARGE_OPTION)
    return CalibrationFigures(
        source="orion",
        read_iops=rounded(_part(iops, 1 - share)), write_iops=rounded(_part(iops, share)),
        read_mbps=rounded(_part(mbps, 1 - share)), write_mbps=rounded(_part(mbps, share)),
        read_latency_ms=rounded(read_latency, 6), write_latency_ms=rounded(write_latency, 6),
        block_size_bytes=small if iops is not None else large, jobs=None,
    )


def _write_share(text: str, *, file_name: str) -> float:
    """The run's share of writes, 0 to 1."""
    match = _WRITE_SHARE.search(text) or _WRITE_OPTION.search(text)
    if match is None:
        if re.search(r"Small\s+Write\s+Latency", text, re.IGNORECASE):
            raise CalibrationError(file_name, "ORION output with write latencies but no write share "
                                              "('Write: N%' line or -write option): give the whole summary")
        return 0.0  # ORION's default, -write 0
    percent = float(match.group(1))
    if percent > 100:
        raise CalibrationError(file_name, f"ORION write share of {match.group(1)} % is more than 100 %")
    return percent / 100


def _latencies(text: str, share: float) -> tuple[float | None, float | None]:
    match = _MIN_LATENCY.search(text)
    if match is None:
        return None, None
    minimum = _ms(match.group(1), match.group(2) or "ms")  # 10.2 and 11.1 print milliseconds, no unit
    if share == 0:
        return minimum, None
    if share == 1:
        return None, minimum
    following = text[match.end():]
    stop = _NEXT_FIGURE.search(following)
    split = {direction.lower(): _ms(value, unit)
             for direction, value, unit in _SPLIT_LATENCY.findall(following[:stop.start() if stop else None])}
    # A mixed run: the minimum is of reads and writes together; 11.2 and later split it on the next lines.
    return split.get("read"), split.get("write")


def _ms(value: str, unit: str) -> float | None:
    number = positive(value)
    if number is None:
        return None
    return number / 1000 if unit.lower().startswith("u") else number


def _part(value: float | None, share: float) -> float | None:
    return value * share if value is not None and share > 0 else None


def _kilobytes(text: str, line: re.Pattern[str], option: re.Pattern[str]) -> int | None:
    match = line.search(text) or option.search(text)
    return int(float(match.group(1)) * 1024) if match else None


def _matrix(text: str, *, file_name: str) -> CalibrationFigures:
    kind = next((k for k in _MATRIX_KINDS if file_name.lower().endswith(f"_{k}.csv")), None)
    if kind is None:
        raise CalibrationError(file_name, "an ORION matrix, but not named <test>_iops.csv, _mbps.csv or "
                                          "_lat.csv, so what it holds is unknown")
    cells = []
    for row in text.splitlines():
        if "," not in row or row.lower().lstrip().startswith("large/small"):
            continue
        cells += [value for cell in row.split(",")[1:] if (value := positive(cell)) is not None]
    if not cells:
        raise CalibrationError(file_name, "an ORION matrix with no figures")
    latency = None
    if kind == "lat":
        latency = min(cells) / 1000 if "microsecond" in text.lower() else min(cells)
    return CalibrationFigures(
        source="orion", read_iops=rounded(max(cells)) if kind == "iops" else None, write_iops=None,
        read_mbps=rounded(max(cells)) if kind == "mbps" else None, write_mbps=None,
        read_latency_ms=rounded(latency, 6), write_latency_ms=None, block_size_bytes=None, jobs=None,
    )


def _stamp(text: str) -> dt.datetime | None:
    match = _STAMP.search(text)
    if match is None:
        return None
    try:
        return dt.datetime.strptime(match.group(1) + match.group(2), "%Y%m%d%H%M").replace(tzinfo=dt.UTC)
    except ValueError:
        return None
