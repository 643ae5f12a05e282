"""Upper bounds on the figures a report does not show: segments a top-N section leaves out, and ``#####``.

An AWR report lists only its top segments per statistic ("Segments by Physical Read Requests"), largest
first. A segment that section does not list did less than the smallest row it lists, and less than the
section's total less the rows it lists (the total is printed above the table, or follows from a row's
%Total). Those bounds are what a DBA may rely on; the figure itself stays unknown (None, never 0).
A section the report does not have gives no bound at all. Pure: standard library only.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from apps.targets.awr_report.cells import ListedRow, SectionListing, overflow_bounds, total_at_most

SegmentKeyTuple = tuple[str, str, str, str, str, str]  # SegmentFigure.key: names, type, container


def unlisted_bounds(listings: Iterable[SectionListing]) -> dict[str, int | None]:
    """Statistic -> upper bound on the figure of a segment its section does not list (None: no bound).

    A statistic is a key only when the report has its section; ``unlisted_bounds(...).get(s)`` is then
    None both for "no section" and "a section without a bound", which mean the same to a caller: unknown.
    """
    rows_by_statistic: dict[str, list[ListedRow]] = {}
    totals: dict[str, int | None] = {}
    for listing in listings:
        if listing.statistic is not None:
            rows_by_statistic.setdefault(listing.statistic, [])
            totals[listing.statistic] = listing.total
        for row in listing.rows:
            rows_by_statistic.setdefault(row.figure.statistic, []).append(row)
    return {statistic: _unlisted_bound(rows, totals.get(statistic)) for statistic, rows in rows_by_statistic.items()}


def _unlisted_bound(rows: Sequence[ListedRow], total: int | None) -> int | None:
    candidates: list[int] = []
    known = [row.figure.value for row in rows if row.figure.value is not None]
    if rows and rows[-1].figure.value is not None:
        # Per-instance rows (global reports with I#): an unlisted segment may do that much on each instance.
        instances = {row.figure.instance_number for row in rows if row.figure.instance_number is not None}
        candidates.append(min(known) * max(len(instances), 1))
    section_total = total if total is not None else total_at_most(rows)
    if section_total is not None and len(known) == len(rows):
        candidates.append(max(section_total - sum(known), 0))
    return min(candidates) if candidates else None


def overflow_uppers(listings: Iterable[SectionListing]) -> dict[tuple[SegmentKeyTuple, str], int | None]:
    """(segment key, statistic) -> upper bound of a figure that is unknown because a row printed ``#####``.

    Rows of one segment and statistic are summed (global per-instance rows): the bound is the sum of the
    known values and the unknown ones' bounds, None when one of those has no bound.
    """
    parts: dict[tuple[SegmentKeyTuple, str], list[int | None]] = {}
    unknown: set[tuple[SegmentKeyTuple, str]] = set()
    for listing in listings:
        for index, row in enumerate(listing.rows):
            where = (row.figure.key, row.figure.statistic)
            if row.figure.value is None:
                unknown.add(where)
                parts.setdefault(where, []).append(overflow_bounds(listing.rows, index, listing.total)[1])
            else:
                parts.setdefault(where, []).append(row.figure.value)
    uppers: dict[tuple[SegmentKeyTuple, str], int | None] = {}
    for where in unknown:
        values = parts[where]
        uppers[where] = None if any(value is None for value in values) else sum(v for v in values if v is not None)
    return uppers
