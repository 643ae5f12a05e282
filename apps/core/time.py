"""UTC bucket boundaries: small pure functions, no clock reads."""

from __future__ import annotations

import datetime as dt


def floor_hour(moment: dt.datetime) -> dt.datetime:
    """>>> floor_hour(dt.datetime(2026, 1, 2, 3, 45, tzinfo=dt.timezone.utc)).hour
    3
    """
    return moment.astimezone(dt.timezone.utc).replace(minute=0, second=0, microsecond=0)


def floor_day(moment: dt.datetime) -> dt.datetime:
    return moment.astimezone(dt.timezone.utc).replace(hour=0, minute=0, second=0, microsecond=0)
