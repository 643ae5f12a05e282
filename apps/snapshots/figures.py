"""The public read of a target's figures over a window: what the apps after this one (tiering) use.

:func:`window_span` says which days a window covers; :func:`window_read`
brings the daily rollups up to date with the snapshots stored since the last
read and returns every active segment's figures over the window
(:class:`~apps.snapshots.windows.WindowArrays`). How that is done (rollups,
window bases prepared ahead, the roll-up written while the window is computed
from it) stays inside this app.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from typing import TypeVar, overload

from django.db import connection, transaction
from django.db.models import Max

from apps.core.db import in_parallel
from apps.core.time import day_bounds, day_start, utc_day
from apps.snapshots import sql as pg
from apps.snapshots import windows
from apps.snapshots.activity import Activity
from apps.snapshots.models import Snapshot
from apps.snapshots.rollups import segment_days_roll_up
from apps.snapshots.selectors import incomplete_intervals
from apps.snapshots.tasks import window_base_prepare as window_base_prepare_task
from apps.snapshots.windows import STATISTICS, WindowArrays

__all__ = ["STATISTICS", "UnlistedBound", "WindowArrays", "WindowSpan", "window_read", "window_span",
           "window_unlisted"]

T = TypeVar("T")


@dataclass(frozen=True)
class WindowSpan:
    """``days`` whole UTC days ending with the day of the target's latest snapshot (never after ``now``)."""

    target_id: int
    days: int
    statistic: str
    first_day: dt.date
    last_day: dt.date
    end_at: dt.datetime

    @property
    def start_at(self) -> dt.datetime:
        return day_start(self.first_day)

    @property
    def stop_at(self) -> dt.datetime:
        return self.start_at + dt.timedelta(days=self.days)


def window_span(*, target_id: int, now: dt.datetime, days: int, statistic: str) -> WindowSpan:
    """The window of a target: the same as today's for a live target, an imported report's own days otherwise."""
    if statistic not in STATISTICS:
        raise ValueError(f"statistic must be one of {', '.join(STATISTICS)}, not {statistic!r}")
    latest = Snapshot.objects.filter(target_id=target_id).aggregate(latest=Max("end_at"))["latest"]
    end = min(latest, now) if latest else now
    last_day = utc_day(end)
    first_day, _ = windows.window_days(last_day=last_day, days=days)
    return WindowSpan(target_id, days, statistic, first_day, last_day, end)


@overload
def window_read(span: WindowSpan, *, now: dt.datetime, next_collect_at: dt.datetime | None = None,
                alongside: Callable[[], T]) -> tuple[WindowArrays, T]: ...
@overload
def window_read(span: WindowSpan, *, now: dt.datetime, next_collect_at: dt.datetime | None = None,
                alongside: None = None) -> tuple[WindowArrays, None]: ...


def window_read(span: WindowSpan, *, now: dt.datetime, next_collect_at: dt.datetime | None = None,
                alongside: Callable[[], T] | None = None) -> tuple[WindowArrays, T | None]:
    """Roll up what was stored since the last read and return the window's figures.

    ``alongside`` runs on a connection of its own meanwhile (the caller's own
    reads), and its result is returned with the figures. For a window that
    moves on with the next day, the next day's window base is prepared by a
    task after the caller's commit; the whole of it when ``next_collect_at``
    falls in the next day.
    """
    roll_up = _RollUp(target_id=span.target_id, last_day=span.last_day, now=now)

    def figures() -> WindowArrays:
        return windows.window_figures(target_id=span.target_id, last_day=span.last_day, days=span.days,
                                      statistic=span.statistic, last_day_rollup=roll_up.last_day_rollup())

    # Up to three connections at once: the roll-up writes its days while the window is computed from them,
    # and the caller reads meanwhile.
    calls: list[Callable[[], object]] = [roll_up, figures, *([alongside] if alongside else [])]
    results = in_parallel(*calls)
    if now - span.end_at < dt.timedelta(days=1):
        next_day = day_bounds(span.last_day)[1]
        day_ends = next_collect_at is not None and next_collect_at >= next_day
        transaction.on_commit(lambda: window_base_prepare_task.delay(
            span.target_id, span.last_day.isoformat(), span.days, span.statistic, day_ends))
    return results[1], (results[2] if alongside else None)


@dataclass(frozen=True)
class UnlistedBound:
    """What a window says of the segments its top-N snapshots list nowhere, and of its RAC intervals.

    ``gaps``: the window holds top-N snapshots (AWR, an imported report) and no complete ones, so such a
    segment was not measured (below capture, not idle). ``iops_bound``: an upper bound on its IOPS, the
    per-snapshot bounds the sources gave summed (NaN: a snapshot gave none). ``incomplete``: intervals
    of a RAC database whose instances are not all stored, as (snap_id, instances stored, instances of
    the database): every segment's figure is then a lower bound (the missing instances' IO is unknown).
    """

    gaps: bool
    iops_bound: float
    incomplete: tuple[tuple[int, int, int], ...] = ()


def window_unlisted(span: WindowSpan) -> UnlistedBound:
    """The window's top-N gap for segments no snapshot of it lists, and its RAC intervals missing instances
    (see :class:`UnlistedBound`).

    A window that also holds complete snapshots (V$ samples of every segment, the demo) measured a
    segment absent from them as idle: no gap then.
    """
    with connection.cursor() as cursor:
        cursor.execute(pg.UNLISTED, {"target": span.target_id, "start": span.start_at, "stop": span.stop_at})
        top_n, complete, unbounded, bound = cursor.fetchone()
    incomplete = tuple(
        (i.snap_id, len(i.instances_stored), i.instances_expected)
        for i in reversed(incomplete_intervals(target_id=span.target_id, start=span.start_at, stop=span.stop_at,
                                               limit=None)))
    if not top_n or complete:
        return UnlistedBound(False, 0.0, incomplete)
    return UnlistedBound(True, float("nan") if unbounded or bound is None else float(bound), incomplete)


class _RollUp:
    """The roll-up before a read (the snapshots stored since the last one), run beside the window's
    computation (on another connection), and what the window may use of it before it has committed.

    The roll-up hands over the last day's rollup before writing it; the
    window is computed from that meanwhile. When an earlier day of the
    window changed too, the window waits for the commit: it reads those days
    from the database.
    """

    def __init__(self, *, target_id: int, last_day: dt.date, now: dt.datetime) -> None:
        self.target_id, self.last_day, self.now = target_id, last_day, now
        self._handoff: Future = Future()  # (the last day's new rollup or None, whether to wait for the commit)
        self._done: Future = Future()
        self._earlier: list[dt.date] = []

    def __call__(self) -> list[dt.date]:
        try:
            changed = segment_days_roll_up(target_id=self.target_id, on_merged=self._merged, now=self.now)
        except BaseException as exc:
            self._done.set_exception(exc)
            raise
        else:
            self._done.set_result(changed)
        finally:
            if not self._handoff.done():  # the last day unchanged: read from the database, now committed
                self._handoff.set_result((None, False))
        return changed

    def _merged(self, day: dt.date, rollup: Activity) -> None:
        if day == self.last_day:
            self._handoff.set_result((rollup, bool(self._earlier)))
        self._earlier.append(day)

    def last_day_rollup(self) -> Activity | None:
        """The last day's rollup when the roll-up changed it (else None); waits as the class says."""
        rollup, wait = self._handoff.result()
        if wait:
            self._done.result()
        return rollup
