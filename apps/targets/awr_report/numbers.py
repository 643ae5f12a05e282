"""Numbers and times as AWR reports print them.

Oracle's report scripts format figures with ``TO_CHAR``/``DBMS_XPLAN``-style
masks: thousands separators (``1,234,567``), leading-dot decimals (``.38``),
unit suffixes on counts (``12.3K``, ``4.5M``: multiples of 1000, as the
reports' own notes say), scientific notation when a column overflows
(``1.298993073E+11``), ``#####`` when even that does not fit, and blanks for
"not available". Everything here is pure and never raises on odd text: a cell
that is not a number is ``None`` (``cells.py`` decides which of those refuse the
report and which are unknown).
"""

from __future__ import annotations

import datetime as dt
import math
import re

# Counts: "other columns suffixed with K,M,G,T,P are in multiples of 1000"
# (note printed under the IOStat sections of every report).
_COUNT_SUFFIX_MULTIPLIER: dict[str, int] = {
    "": 1,
    "K": 10**3,
    "M": 10**6,
    "G": 10**9,
    "T": 10**12,
    "P": 10**15,
}

_NUMBER_RE = re.compile(
    r"""^(?P<sign>[-+]?)
        (?P<mantissa>(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?)
        (?P<suffix>[KMGTP]?)$""",
    re.VERBOSE,
)

_REPORT_TIME_FORMATS: tuple[str, ...] = ("%d-%b-%y %H:%M:%S", "%d-%b-%y %H:%M")


def parse_number(text: str) -> float | None:
    """Read one printed figure; ``None`` for blanks, ``###`` and non-numbers.

    >>> parse_number("1,234.5")
    1234.5
    >>> parse_number("12.3K")
    12300.0
    >>> parse_number("-.1")
    -0.1
    >>> parse_number("####") is None
    True
    """
    cleaned = text.replace(",", "").replace("\xa0", "").strip()
    match = _NUMBER_RE.match(cleaned)
    if match is None:
        return None
    try:
        value = float(match["mantissa"]) * _COUNT_SUFFIX_MULTIPLIER[match["suffix"]]
    except OverflowError:
        return None
    if not math.isfinite(value):
        return None
    return -value if match["sign"] == "-" else value


def parse_count(text: str) -> int | None:
    """Read a printed count (rounded to an integer); ``None`` when absent.

    >>> parse_count("4.5M")
    4500000
    >>> parse_count("   ")
    """
    value = parse_number(text)
    if value is None:
        return None
    return round(value)


def parse_report_time(text: str) -> dt.datetime | None:
    """Read a report time such as ``12-Dec-23 17:00:31`` (naive; reports carry no zone).

    >>> parse_report_time("10-Jul-14 04:00:45")
    datetime.datetime(2014, 7, 10, 4, 0, 45)
    """
    cleaned = " ".join(text.split())
    for time_format in _REPORT_TIME_FORMATS:
        try:
            return dt.datetime.strptime(cleaned, time_format)
        except ValueError:
            continue
    return None


def parse_minutes(text: str) -> float | None:
    """Read an elapsed figure such as ``60.22 (mins)`` or ``8,640.20``.

    >>> parse_minutes("60.22 (mins)")
    60.22
    """
    return parse_number(text.replace("(mins)", ""))


def snake_case(text: str) -> str:
    """Lower-case ``text`` with every run of other characters turned into ``_``.

    >>> snake_case("Global Cache Buffer Busy")
    'global_cache_buffer_busy'
    """
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")
