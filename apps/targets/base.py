"""What every source kind implements.

A source reads one target and returns a :class:`~apps.targets.rows.Collection`.
Sources never touch the Django ORM: the storage service hands them a
:class:`CollectState` (what is already stored) and writes what they return.
One module per implementation: ``oracle/``, ``demo/``, ``awr_report/``,
``extract/``.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass, field

from apps.targets.rows import Collection, CounterSample


class SourceError(Exception):
    """A collection failed. ``permanent`` errors are not retried.

    The message is for a DBA: it says what failed, where, and what to do
    (which grant is missing, which mode to use).
    """

    def __init__(self, message: str, *, permanent: bool, code: str = "") -> None:
        super().__init__(message)
        self.permanent = permanent
        self.code = code  # e.g. "ORA-01017", "DPY-6005"


@dataclass(frozen=True)
class CheckStep:
    """One step of a "test connection" (connect, release, grants, pack), as it completes."""

    step: str
    ok: bool
    detail: str


#: Receives each CheckStep as soon as it completes (the check task records it for the page).
CheckReport = Callable[[CheckStep], None]


@dataclass(frozen=True)
class CollectState:
    """What storage already holds for a target, so sources read only what is new.

    ``last_snap_ids`` maps (dbid, instance_number) to the highest SNAP_ID
    stored. ``history_start_at`` bounds the first collection (default 8 days
    back). ``previous_samples`` are the last cumulative samples stored, per
    instance, for sources that compute deltas from V$ counters.
    """

    now: dt.datetime
    history_start_at: dt.datetime
    last_snap_ids: dict[tuple[int, int], int] = field(default_factory=dict)
    previous_samples: dict[int, CounterSample] = field(default_factory=dict)


class Source:
    """Base class for a source kind.

    Subclasses must implement :meth:`collect`. They may override
    :meth:`check` to verify connectivity, grants and licence before the
    first collection (used by the admin's "test connection").
    """

    #: "awr", "nopack", "demo", "report", "extract"
    mode: str = ""

    def collect(self, state: CollectState) -> Collection:
        """Read everything newer than ``state`` and return it.

        Must raise :class:`SourceError` (never a driver exception) on failure.
        """
        raise NotImplementedError

    def check(self, *, report: CheckReport | None = None) -> list[str]:
        """Return human-readable findings about the target (empty = fine).

        Subclasses that check in steps pass each :class:`CheckStep` to ``report`` as it
        completes, so a page can show progress; a failed step ends the check.
        """
        if report is not None:
            report(CheckStep(step="source", ok=True, detail=f"{self.mode} source: nothing to connect to"))
        return []
