"""Keyset paging of the segment tables: a page is the rows after (or before) a cursor, read from an index in
sort order, never by sorting a target's 100k rows and skipping to an offset.

Each sort is a sequence of parts read one after the other: for a numeric column, the rows with a value in the
column's order then (nulls last) the rows without one; ties are broken by the segment id, in the same direction
so that one index (run, column, segment) read forwards or backwards serves both. A cursor names the part and
the key of the row it stands after; it is signed, so a link edited by hand is refused with a note, never an
error page.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from operator import attrgetter
from typing import Any

from django.core import signing
from django.db.models import F, Q, QuerySet

SALT = "tierscope.dashboard.keyset"

# sort key -> parts: (filter selecting the part, key fields in order, the last being the tie-breaker).
_NUMERIC = {"savings": "savings_usd", "iops": "iops", "intensity": "intensity", "size": "size_gb",
            "cost_now": "cost_now_usd", "cost_after": "cost_after_usd"}
PARTS: dict[str, list[tuple[Q, tuple[str, ...]]]] = {
    **{key: [(Q(**{f"{column}__isnull": False}), (column, "segment_id")),
             (Q(**{f"{column}__isnull": True}), ("segment_id",))] for key, column in _NUMERIC.items()},
    "name": [(Q(), ("segment__owner", "segment__object_name", "segment__subobject_name", "segment_id"))],
    "tier": [(Q(recommended_tier__isnull=False), ("recommended_tier__name", "segment_id")),
             (Q(recommended_tier__isnull=True), ("segment_id",))],
}


class BadCursor(ValueError):
    """A cursor that was not made by this page for this order (edited, truncated, or of another sort)."""


@dataclass(frozen=True)
class KeysetPage:
    rows: list[Any]
    has_next: bool
    has_previous: bool
    next_cursor: str | None
    previous_cursor: str | None

    def __iter__(self):
        return iter(self.rows)

    def __len__(self) -> int:
        return len(self.rows)


def cursor_encode(sort: str, part: int, values: tuple) -> str:
    return signing.dumps([sort, part, [str(v) if not isinstance(v, (int, float, str)) else v for v in values]],
                         salt=SALT, compress=True)


def cursor_decode(token: str, *, sort: str) -> tuple[int, tuple]:
    """(part, key values) of a cursor made for ``sort``; BadCursor otherwise."""
    try:
        made_for, part, values = signing.loads(token, salt=SALT)
    except (signing.BadSignature, ValueError, TypeError) as exc:
        raise BadCursor("the page link is not one this page made") from exc
    parts = PARTS[sort.lstrip("-")]
    if made_for != sort or not isinstance(part, int) or not 0 <= part < len(parts) \
            or len(values) != len(parts[part][1]):
        raise BadCursor("the page link is for another order of the table")
    return part, tuple(values)


def _beyond(fields: tuple[str, ...], values: tuple, *, descending: bool) -> Q:
    """Rows whose key comes after ``values`` in the reading order: lexicographic, plus a bound on the first
    field alone so that PostgreSQL starts the index scan at the cursor rather than filtering up to it."""
    op, op_eq = ("lt", "lte") if descending else ("gt", "gte")
    q = Q()
    for i in range(len(fields)):
        q |= Q(**{f: v for f, v in zip(fields[:i], values[:i])}, **{f"{fields[i]}__{op}": values[i]})
    return Q(**{f"{fields[0]}__{op_eq}": values[0]}) & q


def _key(row: Any, fields: tuple[str, ...]) -> tuple:
    return tuple(attrgetter(f.replace("__", "."))(row) for f in fields)


def keyset_page(qs: QuerySet, *, sort: str, size: int, after: str | None = None,
                before: str | None = None) -> KeysetPage:
    """The ``size`` rows of ``qs`` after the cursor ``after`` (or before ``before``; ``before=""``: the last
    page), in the order of ``sort`` (a PARTS key, ``-key`` descending). One query per part read: two at most
    (the tier sort: two), whatever the number of rows. BadCursor for a cursor not made for this sort."""
    key = sort.lstrip("-")
    parts, descending = PARTS[key], sort.startswith("-")
    forward = before is None
    token = after if forward else before
    position = cursor_decode(token, sort=sort) if token else None
    order: Sequence[int] = range(len(parts)) if forward else range(len(parts) - 1, -1, -1)
    if position is not None:
        order = [i for i in order if (i >= position[0] if forward else i <= position[0])]
    reading_desc = descending == forward  # a backward read runs the order reversed
    rows: list[tuple[int, Any]] = []
    for index in order:
        part_q, fields = parts[index]
        query = qs.filter(part_q)
        if position is not None and index == position[0]:
            query = query.filter(_beyond(fields, position[1], descending=reading_desc))
        ordering = [F(f).desc() if reading_desc else F(f).asc() for f in fields]
        rows += [(index, row) for row in query.order_by(*ordering)[: size + 1 - len(rows)]]
        if len(rows) > size:
            break
    more, rows = len(rows) > size, rows[:size]
    if not forward:
        rows.reverse()
        if not more and position is not None:  # fewer than a page before it: the first page, full
            return keyset_page(qs, sort=sort, size=size)
    first, last = (rows[0], rows[-1]) if rows else (None, None)
    return KeysetPage(
        rows=[row for _, row in rows],
        has_next=more if forward else position is not None,
        has_previous=(position is not None) if forward else more,
        next_cursor=cursor_encode(sort, last[0], _key(last[1], parts[last[0]][1])) if last else None,
        previous_cursor=cursor_encode(sort, first[0], _key(first[1], parts[first[0]][1])) if first else None,
    )
