"""What every calibration parser returns, and the small helpers they share (standard library only).

A parser reads one file's text and returns a :class:`CalibrationReading`: the figures (exactly the keys
``manage.py calibration --format json`` prints, :data:`FIGURE_KEYS`) and, when the file says, when it
was measured. A parser that cannot read its file raises :class:`CalibrationError` with one line that
names the file and what is wrong. Units are those of the rest of tierscope: MB = 2**20 bytes, latency in
milliseconds, times in UTC.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import math
from dataclasses import dataclass
from typing import Any

MIB = 1024 * 1024
SOURCES = ("fio", "orion", "calibrate_io")
FIGURE_KEYS = ("source", "read_iops", "write_iops", "read_mbps", "write_mbps", "read_latency_ms",
               "write_latency_ms", "block_size_bytes", "jobs")


class CalibrationError(ValueError):
    """A file that is not a calibration we can read; ``str()`` is one line: ``"FILE: what is wrong"``."""

    def __init__(self, file_name: str, problem: str) -> None:
        # One line, whatever the problem text carried (a JSON error can quote a newline).
        super().__init__(f"{file_name}: {' '.join(problem.split())}")


def both_directions(read: float | None, write: float | None) -> float | None:
    """Reads and writes together, from the directions measured; None if neither was (never 0 for unmeasured).

    >>> both_directions(100.0, None), both_directions(None, None), both_directions(1.5, 2.0)
    (100.0, None, 3.5)
    """
    measured = [v for v in (read, write) if v is not None]
    return sum(measured) if measured else None


class BothDirections:
    """Reads and writes together, for anything with the four figures (the parsed figures, a stored row)."""

    read_iops: float | None
    write_iops: float | None
    read_mbps: float | None
    write_mbps: float | None

    @property
    def iops(self) -> float | None:
        """Reads and writes per second together, from the directions measured; None if neither was."""
        return both_directions(self.read_iops, self.write_iops)

    @property
    def mbps(self) -> float | None:
        """MB/s of reads and writes together, from the directions measured; None if neither was."""
        return both_directions(self.read_mbps, self.write_mbps)


@dataclass(frozen=True)
class CalibrationFigures(BothDirections):
    """One measurement's figures. None where the file does not measure it: a direction with no IOs is
    None, never 0."""

    source: str  # one of SOURCES
    read_iops: float | None
    write_iops: float | None
    read_mbps: float | None  # MB = 2**20 bytes
    write_mbps: float | None
    read_latency_ms: float | None  # mean completion latency
    write_latency_ms: float | None
    block_size_bytes: int | None
    jobs: int | None

    def as_dict(self) -> dict[str, Any]:
        """The figures under FIGURE_KEYS, in that order (what --format json prints)."""
        return {key: getattr(self, key) for key in FIGURE_KEYS}


@dataclass(frozen=True)
class CalibrationReading:
    """A parsed file: its figures and, when the file says, when it was measured (UTC)."""

    figures: CalibrationFigures
    measured_at: dt.datetime | None = None

    def replace(self, **changes: Any) -> CalibrationReading:
        return dataclasses.replace(self, **changes)


def finite(value: Any) -> float | None:
    """A JSON or text number as a finite float, or None (strings, booleans, NaN and infinities are not).

    >>> finite(3), finite("2.5"), finite(float("nan")), finite(True), finite("x")
    (3.0, 2.5, None, None, None)
    """
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        try:
            number = float(value)
        except OverflowError:  # an integer beyond any float: not a figure
            return None
    elif isinstance(value, str):
        try:
            number = float(value.strip())
        except ValueError:
            return None
    else:
        return None
    return number if math.isfinite(number) else None


def positive(value: Any) -> float | None:
    """A finite number above zero, or None: a figure of 0 means 'not measured' in every format we read.

    >>> positive(0), positive(-1), positive("12")
    (None, None, 12.0)
    """
    number = finite(value)
    return number if number is not None and number > 0 else None


def rounded(value: float | None, digits: int = 3) -> float | None:
    return None if value is None else round(value, digits)


_SIZE_UNITS = {"": 1, "b": 1, "k": 1024, "kb": 1024, "kib": 1024, "m": MIB, "mb": MIB, "mib": MIB,
               "g": 1024 * MIB, "gb": 1024 * MIB, "gib": 1024 * MIB}


def size_bytes(text: str) -> int | None:
    """A block size as fio or ORION write it, in bytes (k = 1024, fio's default kb_base); None when it
    is not one size (a range "4k-16k", a list "4k,8k" whose parts differ) or not a size at all.

    >>> size_bytes("4k"), size_bytes("8 KB"), size_bytes("4096"), size_bytes("1m"), size_bytes("4k,4k")
    (4096, 8192, 4096, 1048576, 4096)
    >>> size_bytes("4k-16k"), size_bytes("4k,8k"), size_bytes("fast")
    (None, None, None)
    """
    parts = {part.strip().lower().replace(" ", "") for part in text.split(",") if part.strip()}
    sizes = set()
    for part in parts:
        digits = part.rstrip("abcdefghijklmnopqrstuvwxyz")
        unit = part[len(digits):]
        if unit not in _SIZE_UNITS or not digits.replace(".", "", 1).isdigit():
            return None
        sizes.add(int(float(digits) * _SIZE_UNITS[unit]))
    return sizes.pop() if len(sizes) == 1 else None
