"""UTC days and hours: small pure functions, no clock reads.

Every day of tierscope is a UTC day, 24 hours long, whatever the server's or the DBA's zone (a system check
refuses any TIME_ZONE but UTC): a day's rollup, a partition of the segment statistics, a window's days and
retention all cut time at 00:00 UTC. Their bounds come from here, half-open: [start, stop).
"""

from __future__ import annotations

import datetime as dt

UTC = dt.timezone.utc
_DAY = dt.timedelta(days=1)


def floor_day(moment: dt.datetime) -> dt.datetime:
    """The start of ``moment``'s UTC day.

    >>> floor_day(dt.datetime(2026, 3, 29, 1, 30, tzinfo=dt.timezone(dt.timedelta(hours=2)))).isoformat()
    '2026-03-28T00:00:00+00:00'
    """
    return moment.astimezone(UTC).replace(hour=0, minute=0, second=0, microsecond=0)


def utc_day(moment: dt.datetime) -> dt.date:
    """The UTC day of an aware ``moment``.

    >>> utc_day(dt.datetime(2026, 1, 1, 0, 30, tzinfo=dt.timezone(dt.timedelta(hours=1))))
    datetime.date(2025, 12, 31)
    """
    return moment.astimezone(UTC).date()


def day_start(day: dt.date) -> dt.datetime:
    """00:00 UTC of ``day``.

    >>> day_start(dt.date(2024, 2, 29)).isoformat()
    '2024-02-29T00:00:00+00:00'
    """
    return dt.datetime.combine(day, dt.time(), tzinfo=UTC)


def day_bounds(first_day: dt.date, last_day: dt.date | None = None) -> tuple[dt.datetime, dt.datetime]:
    """[start, stop) of the whole UTC days ``first_day`` to ``last_day`` (the one day ``first_day`` when no
    ``last_day``): 00:00 UTC of the first, 00:00 UTC of the day after the last.

    >>> [moment.isoformat() for moment in day_bounds(dt.date(2026, 1, 31))]
    ['2026-01-31T00:00:00+00:00', '2026-02-01T00:00:00+00:00']
    """
    return day_start(first_day), day_start((last_day or first_day) + _DAY)


def days_of(start: dt.datetime, stop: dt.datetime) -> tuple[dt.date, dt.date]:
    """The first and last UTC day that [start, stop) touches (``stop`` itself is not in it).

    >>> days_of(dt.datetime(2026, 1, 1, 6, tzinfo=UTC), dt.datetime(2026, 1, 3, tzinfo=UTC))
    (datetime.date(2026, 1, 1), datetime.date(2026, 1, 2))
    """
    return utc_day(start), utc_day(stop - dt.timedelta(microseconds=1))
