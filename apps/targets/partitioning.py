"""How a table or index is partitioned, and the order of its partitions by their bounds.

DBA_PART_TABLES / DBA_PART_INDEXES give the method (PARTITIONING_TYPE RANGE, LIST, HASH, SYSTEM,
REFERENCE; INTERVAL set for interval partitioning; SUBPARTITIONING_TYPE NONE or the composite's second
method), DBA_PART_KEY_COLUMNS / DBA_SUBPART_KEY_COLUMNS the key columns, and DBA_TAB_PARTITIONS /
DBA_IND_PARTITIONS.HIGH_VALUE each partition's bound as the SQL text Oracle keeps (a LONG):
``TO_DATE(' 2026-12-01 00:00:00', 'SYYYY-MM-DD HH24:MI:SS', 'NLS_CALENDAR=GREGORIAN')``,
``TIMESTAMP' 2026-12-01 00:00:00'``, ``100000``, ``MAXVALUE``, a list ``'EAST', 'WEST'`` or ``DEFAULT``.

:func:`bound_key` reads a bound into a sortable key (dates and numbers; MAXVALUE sorts last); a bound it
cannot order (a string, DEFAULT, a hash partition's empty one) has none. :func:`partition_orders` ranks a
table's partitions by those keys: the order "newer than the hot partition" is judged by
(apps.tiering.recommendations.lifecycle), never PARTITION_POSITION (a list partition's position is its creation order).
A hash-partitioned table has no order at all: a hash partition is never a time slice.

Pure: standard library only.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

#: HIGH_VALUE longer than this is not read (a LONG may hold a long list): its partition has no bound, and
#: the collection notes it.
BOUND_MAX_CHARS = 4000

#: Partitioning methods whose partitions can be time slices (ordered by bound). HASH and SYSTEM cannot;
#: REFERENCE follows its parent table, which this table's own bounds do not say.
ORDERED_METHODS = frozenset({"RANGE", "LIST", "INTERVAL"})

_MAXVALUE = (1, 0.0)
_EPOCH = dt.datetime(1970, 1, 1)
_TO_DATE = re.compile(r"TO_DATE\(\s*'\s*(-?\d{1,4}-\d{2}-\d{2}(?: \d{2}:\d{2}:\d{2})?)\s*'", re.IGNORECASE)
_TIMESTAMP = re.compile(r"TIMESTAMP\s*'\s*(-?\d{1,4}-\d{2}-\d{2}(?: \d{2}:\d{2}:\d{2}(?:\.\d+)?)?)\s*'",
                        re.IGNORECASE)
_NUMBER = re.compile(r"^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$")


@dataclass(frozen=True)
class Partitioning:
    """One partitioned table or index as DBA_PART_TABLES / DBA_PART_INDEXES and the key column views say.

    ``method``: RANGE, LIST, HASH, SYSTEM, REFERENCE or INTERVAL (a RANGE table with INTERVAL set);
    ``submethod``: the composite's subpartitioning method, None when not composite.
    """

    method: str
    submethod: str | None = None
    keys: tuple[str, ...] = ()
    subkeys: tuple[str, ...] = ()

    @property
    def ordered(self) -> bool:
        """Its partitions can be time slices: ordered by bound."""
        return self.method in ORDERED_METHODS

    def label(self) -> str:
        """``RANGE(ORDER_DATE)-HASH(ORDER_ID)``, as the pages show it.

        >>> Partitioning("INTERVAL", "HASH", ("ORDER_DATE",), ("ORDER_ID",)).label()
        'INTERVAL(ORDER_DATE)-HASH(ORDER_ID)'
        >>> Partitioning("LIST").label()
        'LIST'
        """
        first = self.method + (f"({', '.join(self.keys)})" if self.keys else "")
        if not self.submethod:
            return first
        return first + "-" + self.submethod + (f"({', '.join(self.subkeys)})" if self.subkeys else "")


def partitioning_of(partitioning_type: str | None, subpartitioning_type: str | None, interval: str | None,
                    keys: Sequence[str] = (), subkeys: Sequence[str] = ()) -> Partitioning | None:
    """A DBA_PART_TABLES / DBA_PART_INDEXES row as a :class:`Partitioning`; None without a type.

    >>> partitioning_of("RANGE", "NONE", "NUMTOYMINTERVAL(1,'MONTH')").method
    'INTERVAL'
    >>> partitioning_of("RANGE", "HASH", None).submethod
    'HASH'
    """
    method = (partitioning_type or "").strip().upper()
    if not method:
        return None
    if method == "RANGE" and interval and interval.strip():
        method = "INTERVAL"
    sub = (subpartitioning_type or "").strip().upper()
    return Partitioning(method, None if sub in ("", "NONE") else sub, tuple(keys), tuple(subkeys))


def bound_key(high_value: str | None) -> tuple[tuple[int, float], ...] | None:
    """A partition's HIGH_VALUE as a sortable key: one (0, value) per key column (dates as seconds since
    1970, numbers as they are), (1, 0) for MAXVALUE, which sorts last. A list partition's key is its
    greatest value. None: no bound, or one this cannot order (strings, DEFAULT, a longer text than
    BOUND_MAX_CHARS, a hash partition's empty one).

    >>> bound_key("TO_DATE(' 2026-12-01 00:00:00', 'SYYYY-MM-DD HH24:MI:SS', 'NLS_CALENDAR=GREGORIAN')")
    ((0, 1796083200.0),)
    >>> bound_key("TIMESTAMP' 2026-12-01 00:00:00'") == bound_key("TO_DATE(' 2026-12-01', 'SYYYY-MM-DD')")
    True
    >>> bound_key("2026, MAXVALUE"), bound_key("'EAST', 'WEST'"), bound_key("DEFAULT")
    (((0, 2026.0), (1, 0.0)), None, None)
    """
    if high_value is None or not high_value.strip() or len(high_value) > BOUND_MAX_CHARS:
        return None
    values = []
    for item in _split_top_level(high_value):
        value = _value(item)
        if value is None:
            return None
        values.append(value)
    return tuple(values) if values else None


def list_bound_key(high_value: str | None) -> tuple[tuple[int, float], ...] | None:
    """A list partition's values as a key: its greatest value (every value a date or a number), else None.

    >>> list_bound_key("20260101, 20260102")
    ((0, 20260102.0),)
    """
    key = bound_key(high_value)
    return None if key is None else (max(key),)


def partition_orders(bounds: Mapping[str, str | None], partitioning: Partitioning | None) -> dict[str, int]:
    """Rank 1, 2, ... (oldest first; equal bounds share a rank) of the partitions whose bound orders them;
    a partition missing from the result has no order. A table that is not range, interval or list
    partitioned (or whose partitioning is not known) has none.

    >>> partition_orders({"P3": "MAXVALUE", "P1": "100", "P2": "200", "PX": "'A'"}, Partitioning("RANGE"))
    {'P1': 1, 'P2': 2, 'P3': 3}
    >>> partition_orders({"P1": "", "P2": ""}, Partitioning("HASH"))
    {}
    """
    if partitioning is None or not partitioning.ordered:
        return {}
    read = list_bound_key if partitioning.method == "LIST" else bound_key
    keys = {name: key for name, key in ((name, read(text)) for name, text in bounds.items()) if key is not None}
    ranks = {key: rank for rank, key in enumerate(sorted(set(keys.values())), start=1)}
    return {name: ranks[key] for name, key in sorted(keys.items(), key=lambda pair: pair[1])}


def _split_top_level(text: str) -> Iterable[str]:
    """The comma-separated items of a bound, ignoring commas inside quotes and parentheses."""
    depth, quoted, start = 0, False, 0
    for index, char in enumerate(text):
        if char == "'":
            quoted = not quoted
        elif not quoted and char == "(":
            depth += 1
        elif not quoted and char == ")":
            depth -= 1
        elif not quoted and depth == 0 and char == ",":
            yield text[start:index].strip()
            start = index + 1
    yield text[start:].strip()


def _value(item: str) -> tuple[int, float] | None:
    if item.upper() == "MAXVALUE":
        return _MAXVALUE
    if _NUMBER.match(item):
        return (0, float(item))
    match = _TO_DATE.match(item) or _TIMESTAMP.match(item)
    if match is None:
        return None
    moment = _moment(match.group(1))
    return None if moment is None else (0, (moment - _EPOCH).total_seconds())


def _moment(text: str) -> dt.datetime | None:
    # Oracle years may be negative (BC) or below 1000; Python's datetime starts at year 1.
    negative = text.startswith("-")
    if negative:
        return None
    date_part, _, time_part = text.partition(" ")
    try:
        year, month, day = (int(part) for part in date_part.split("-"))
        hour, minute, second = (0, 0, 0.0)
        if time_part:
            h, m, s = time_part.split(":")
            hour, minute, second = int(h), int(m), float(s)
        return dt.datetime(year, month, day, hour, minute) + dt.timedelta(seconds=second)
    except ValueError:
        return None
