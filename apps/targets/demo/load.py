"""The demo database's load over time: the daily and weekly load curve of each workload cycle (office
hours for order entry, nights for reporting) and the weekly instance restart that resets its counters.

Split from ``simulator`` by concern: these are noise-free functions of the clock alone; the simulator adds
the hourly and per-segment noise.

Standard library only.
"""

from __future__ import annotations

import datetime as dt

from apps.targets.demo.schema import CYCLE_BATCH, CYCLE_BUSINESS, HOUR, snap_end_at

RESTART_WEEKDAY = 6  # Sunday
RESTART_HOUR = 3  # weekly maintenance restart at 03:00 UTC

# Load at each UTC hour (0..23) and weekday (Monday..Sunday), 1.0 = the peak rate.
_BUSINESS_BY_HOUR = (
    0.14, 0.12, 0.11, 0.11, 0.12, 0.18, 0.32, 0.55, 0.82, 0.97, 1.0, 0.98,
    0.86, 0.9, 0.96, 0.94, 0.85, 0.7, 0.55, 0.45, 0.38, 0.3, 0.22, 0.17,
)
_BUSINESS_BY_WEEKDAY = (1.0, 1.02, 1.0, 0.98, 0.93, 0.42, 0.3)
_BATCH_BY_HOUR = (
    0.7, 1.0, 1.0, 0.95, 0.8, 0.5, 0.2, 0.08, 0.05, 0.05, 0.05, 0.05,
    0.05, 0.05, 0.05, 0.05, 0.05, 0.06, 0.08, 0.1, 0.15, 0.2, 0.3, 0.45,
)
_BATCH_BY_WEEKDAY = (1.0, 1.0, 1.0, 1.0, 1.0, 0.6, 0.5)


def startup_at_for(snap_id: int) -> dt.datetime:
    """The instance startup time in force during hour ``snap_id`` (weekly restart)."""
    begin_at = snap_end_at(snap_id) - HOUR
    days_back = (begin_at.weekday() - RESTART_WEEKDAY) % 7
    restart_at = (begin_at - dt.timedelta(days=days_back)).replace(hour=RESTART_HOUR)
    if restart_at > begin_at:
        restart_at -= dt.timedelta(days=7)
    return restart_at


def cycle_load(cycle: str, begin_at: dt.datetime) -> float:
    """Noise-free load (peak = 1.0) of a cycle in the hour starting at ``begin_at``."""
    if cycle == CYCLE_BUSINESS:
        return _BUSINESS_BY_HOUR[begin_at.hour] * _BUSINESS_BY_WEEKDAY[begin_at.weekday()]
    if cycle == CYCLE_BATCH:
        return _BATCH_BY_HOUR[begin_at.hour] * _BATCH_BY_WEEKDAY[begin_at.weekday()]
    return 1.0
