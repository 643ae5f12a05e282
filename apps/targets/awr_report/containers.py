"""Multitenant reports: the container (PDB) of each row, and Tablespace IO rows per name.

A CDB-level report (12c on) lists each segment row with the PDB it belongs to, as a last "PDB Name" column
(HTML; values such as ``CDB$ROOT``, ``PDB1``), and some releases a "Con Id" / "CON#" number. That is the
segment's container: the same owner.object in two PDBs is two segments, never summed into one. A report of
a non-CDB, or of one PDB, prints no such column: the container is "".

Tablespace IO Stats of a CDB report also prints a row per PDB, and tablespace names repeat across PDBs
(SYSTEM, SYSAUX, USERS in each). The row contract keeps one Tablespace IO figure per name, so
:func:`merge_tablespaces` sums a name's rows (read time weighted by reads) and a note says which names were
summed over which containers; the rows per container are kept apart in ``AwrReport.container_tablespaces``.
Pure: standard library only.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from apps.targets.awr_report.model import TablespaceFigure, TablespaceIOStat

#: Column headings (normalized) that name a row's container, best first: the PDB name when printed.
CONTAINER_HEADINGS: tuple[str, ...] = ("pdb name", "con name", "container name", "con id", "con#", "con_id")


def container_column(headings: Sequence[str]) -> int | None:
    """Index of the column naming the container (the PDB name before a Con Id), None when there is none.

    >>> container_column(["owner", "object name", "con id", "pdb name"])
    3
    """
    for wanted in CONTAINER_HEADINGS:
        if wanted in headings:
            return list(headings).index(wanted)
    return None


def merge_tablespaces(figures: Iterable[TablespaceFigure]) -> dict[str, TablespaceIOStat]:
    """One entry per tablespace name; rows of several PDBs/instances are summed.

    The average read time of merged rows is weighted by their reads.
    """
    grouped: dict[str, list[TablespaceFigure]] = {}
    for figure in figures:
        grouped.setdefault(figure.name, []).append(figure)
    return {name: _merge_tablespace_rows(rows) for name, rows in grouped.items()}


def container_tablespaces(figures: Iterable[TablespaceFigure]) -> dict[tuple[str, str], TablespaceIOStat]:
    """(container, tablespace) -> its figures, for a report that prints a PDB column in Tablespace IO Stats;
    empty otherwise."""
    rows = list(figures)
    if not any(figure.container for figure in rows):
        return {}
    grouped: dict[tuple[str, str], list[TablespaceFigure]] = {}
    for figure in rows:
        grouped.setdefault((figure.container, figure.name), []).append(figure)
    return {key: _merge_tablespace_rows(group) for key, group in grouped.items()}


def summed_tablespaces_notes(figures: Iterable[TablespaceFigure], *, filename: str) -> list[str]:
    """One note naming the tablespaces whose rows of several containers were summed into one figure."""
    rows = list(figures)
    if not any(figure.container for figure in rows):
        return []
    containers: dict[str, list[str]] = {}
    for figure in rows:
        shown = figure.container or "a row with no PDB name"
        if shown not in containers.setdefault(figure.name, []):
            containers[figure.name].append(shown)
    summed = {name: found for name, found in containers.items() if len(found) > 1}
    if not summed:
        return []
    listed = "; ".join(f"{name} ({', '.join(found)})" for name, found in summed.items())
    source = f"{filename}: " if filename else ""
    return [f"{source}Tablespace IO Stats prints these tablespace names in several containers, and tierscope keeps "
            f"one Tablespace IO figure per name, so their rows are summed: {listed}"]


def _merge_tablespace_rows(rows: Sequence[TablespaceFigure]) -> TablespaceIOStat:
    if len(rows) == 1:
        return TablespaceIOStat(reads=rows[0].reads, av_read_ms=rows[0].av_read_ms, writes=rows[0].writes)
    reads = sum(row.reads for row in rows)
    writes = sum(row.writes for row in rows)
    timed = [row for row in rows if row.av_read_ms is not None]
    av_read_ms: float | None = None
    if timed and reads > 0:
        total_ms = sum(row.reads * (row.av_read_ms or 0.0) for row in timed)
        av_read_ms = round(total_ms / reads, 2)
    elif timed:
        av_read_ms = timed[0].av_read_ms
    return TablespaceIOStat(reads=reads, av_read_ms=av_read_ms, writes=writes)
