"""The statistic tables both readers keep figures from (Instance Activity Stats, System Statistics (Global)):
which statistics tierscope stores, and what one row of such a table gives."""

from __future__ import annotations

from collections.abc import Sequence

from apps.targets.awr_report.cells import CellProblem, is_blank, is_overflow, refusal, strict_count
from apps.targets.awr_report.sections import normalize, overflow_row_note

_SYSSTAT_NAME_FRAGMENTS: tuple[str, ...] = ("flash cache", "optimized", "cell flash")
_SYSSTAT_REQUEST_COUNTERS: frozenset[str] = frozenset(
    {
        "physical read io requests",
        "physical write io requests",
        "physical read total io requests",
        "physical write total io requests",
    }
)


def is_kept_sysstat(name: str) -> bool:
    """True for the flash-cache / optimized / IO-request statistics tierscope stores."""
    lowered = normalize(name)
    return lowered in _SYSSTAT_REQUEST_COUNTERS or any(
        fragment in lowered for fragment in _SYSSTAT_NAME_FRAGMENTS
    )


def statistic_total_columns(headings: Sequence[str]) -> tuple[int, int] | None:
    """(name column, total column) of a "Statistic / Total / per Second" table."""
    names = [normalize(heading) for heading in headings]
    if "statistic" not in names or "total" not in names:
        return None
    return names.index("statistic"), names.index("total")


def kept_statistic(
    row: Sequence[str], columns: tuple[int, int], *, section: str, where: str, filename: str, line: int | None,
    notes: list[str],
) -> tuple[str, int] | None:
    """A row's statistic and Total when tierscope keeps that statistic and the row prints its Total; None for
    any other row (a Total printed as ``#####`` is noted in ``notes``). A Total that is not a number is refused
    (AwrReportError naming the section, ``where`` in it, the file and the line)."""
    name_at, total_at = columns
    if max(name_at, total_at) >= len(row):
        return None
    name = " ".join(row[name_at].split())
    if not name or not is_kept_sysstat(name) or is_blank(row[total_at]):
        return None
    if is_overflow(row[total_at]):
        notes.append(overflow_row_note("statistic", name, section=section, line=line, filename=filename))
        return None
    try:
        value = strict_count(row[total_at], column="Total")
    except CellProblem as problem:
        raise refusal(problem, section=section, where=where, filename=filename, line=line) from None
    return None if value is None else (name, value)
