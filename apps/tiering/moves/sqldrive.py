"""Would tuning the SQL that drives a segment save more than moving the segment? (pure: no Django)

A statement that reads a segment whole (TABLE ACCESS FULL in its plan, or many read requests per
execution) and accounts for most of the segment's reads costs the database its reads times the tier's
read latency every day. Moving the segment to a faster tier only shortens each of those reads; an index
or a rewrite removes most of them, on any tier. When the statement's daily IO time is more than the
move's predicted IO time saved, the page says so.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from apps.tiering.rules.in_words import duration

#: Read requests per execution from which a statement reads like a scan rather than a lookup.
SCAN_READS_PER_EXECUTION = 100.0
#: Share of the segment's reads from which a statement "accounts for most of them".
MOST_READS_SHARE = 0.5
#: IO time a day below which a statement is not worth a note, whatever the move saves (5 minutes).
MIN_IO_S_PER_DAY = 300.0
_DAY_S = 86400.0


@dataclass(frozen=True)
class StatementReads:
    """One statement's figures on one segment over ``window_s`` seconds (None: unknown)."""

    sql_id: str
    read_requests: int | None  # attributed to the segment
    executions: int | None
    full_scan: bool | None
    window_s: float


@dataclass(frozen=True)
class TuningNote:
    sql_id: str
    share: float  # of the segment's reads (0..1)
    reads_per_day: float
    io_s_per_day: float
    move_saved_s_per_day: float | None
    text: str


def _scan_like(statement: StatementReads) -> bool:
    if statement.full_scan:
        return True
    if statement.read_requests is None or not statement.executions:
        return False
    return statement.read_requests / statement.executions >= SCAN_READS_PER_EXECUTION


def tuning_note(*, statements: Sequence[StatementReads], segment_reads_per_day: float | None,
                read_latency_ms: float | None, move_saved_s_per_day: float | None, segment: str) -> TuningNote | None:
    """The note for the first scan-like statement with most of the segment's reads whose daily IO time is
    more than the move saves; None when there is none, or a figure it needs is unknown.

    ``segment_reads_per_day`` is the segment's own (the recommendation's); without it, the share is taken
    among the listed statements when all their reads are known.
    """
    if read_latency_ms is None or read_latency_ms <= 0:
        return None
    known = [(s, per_day) for s in statements if (per_day := _reads_per_day(s)) is not None]
    listed_per_day = sum(per_day for _, per_day in known)
    total_per_day = segment_reads_per_day if segment_reads_per_day else (
        listed_per_day if len(known) == len(statements) else None)
    if not total_per_day:
        return None
    for statement, reads_per_day in known:
        share = min(1.0, reads_per_day / total_per_day)
        if not _scan_like(statement) or share < MOST_READS_SHARE:
            continue
        io_s = reads_per_day * read_latency_ms / 1000.0
        if io_s < MIN_IO_S_PER_DAY or (move_saved_s_per_day is not None and io_s <= move_saved_s_per_day):
            continue
        return TuningNote(statement.sql_id, share, reads_per_day, io_s, move_saved_s_per_day,
                          _words(statement, share, reads_per_day, io_s, read_latency_ms, move_saved_s_per_day, segment))
    return None


def _reads_per_day(statement: StatementReads) -> float | None:
    if statement.read_requests is None or statement.window_s <= 0:
        return None
    return statement.read_requests * _DAY_S / statement.window_s


def _words(statement: StatementReads, share: float, reads_per_day: float, io_s: float, latency_ms: float,
           move_saved_s: float | None, segment: str) -> str:
    how = "full-scans" if statement.full_scan else "reads"
    per_execution = ""
    if statement.executions and statement.read_requests is not None:
        per_execution = f" ({statement.read_requests / statement.executions:,.0f} read requests per execution)"
    cost = (f"SQL_ID {statement.sql_id} {how} {segment}{per_execution} and accounts for {share:.0%} of its reads: "
            f"{reads_per_day:,.0f} read requests a day, about {duration(io_s)} of IO time at {latency_ms:.2f} ms "
            "a read.")
    advice = "Tune the statement before paying for faster storage."
    if move_saved_s is None:
        move = "What moving the segment would save is not known"
    elif move_saved_s <= 0:
        move, advice = "The recommendation saves no IO time by moving it", "The time is in the statement."
    else:
        move = f"Moving the segment saves about {duration(move_saved_s)} a day"
    return (f"{cost} {move}; an index or a rewrite of this statement (or a partition-pruning predicate) would "
            f"remove most of those reads, on whatever tier the segment sits. {advice}")
