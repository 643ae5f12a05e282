"""Knowledge shared by the HTML and text readers: which sections and columns matter.

Section titles and column headings are compared after :func:`normalize`
(lower case, single spaces), because every release pads them differently
(``Tablespace    Name``, ``Subobject        Name``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from apps.targets.awr_report.cells import (
    CellProblem,
    ListedRow,
    clean,
    is_blank,
    refusal,
    strict_count,
    strict_number,
)
from apps.targets.awr_report.containers import container_column
from apps.targets.awr_report.model import SegmentFigure, TablespaceFigure, check_names
from apps.targets.awr_report.numbers import parse_count, parse_number, snake_case

SEGMENT_SECTION_PREFIX = "segments by "
GLOBAL_SEGMENT_SECTION = "segment statistics (global)"
#: Compare-period reports (awrddrpt.sql): "Top Segments Comparison by Physical Read Requests".
COMPARE_SEGMENT_SECTION_PREFIX = "top segments comparison by "

#: "Segments by <title>" -> statistic key. Unknown titles fall back to snake_case.
SEGMENT_SECTION_STATISTICS: dict[str, str] = {
    "logical reads": "logical_reads",
    "physical reads": "physical_reads",
    "physical read requests": "physical_read_requests",
    "unoptimized reads": "unoptimized_reads",
    "unoptimized read requests": "unoptimized_reads",  # compare-period reports' title
    "optimized reads": "optimized_physical_reads",
    "optimized read requests": "optimized_physical_reads",
    "direct physical reads": "physical_reads_direct",
    "physical writes": "physical_writes",
    "physical write requests": "physical_write_requests",
    "direct physical writes": "physical_writes_direct",
    "table scans": "table_scans",
    "db blocks changes": "db_block_changes",
    "db block changes": "db_block_changes",
    "row lock waits": "row_lock_waits",
    "itl waits": "itl_waits",
    "buffer busy waits": "buffer_busy_waits",
    "global cache buffer busy": "gc_buffer_busy",
    "cr blocks received": "gc_cr_blocks_received",
    "current blocks received": "gc_current_blocks_received",
    "global cache remote grants": "gc_remote_grants",
}

#: V$SEGSTAT statistic names (the "Statistic" column of Segment Statistics
#: (Global)) -> the same keys as the per-section reports use.
GLOBAL_SEGMENT_STATISTICS: dict[str, str] = {
    "logical reads": "logical_reads",
    "physical reads": "physical_reads",
    "physical read requests": "physical_read_requests",
    "optimized physical reads": "optimized_physical_reads",
    "physical reads direct": "physical_reads_direct",
    "physical writes": "physical_writes",
    "physical write requests": "physical_write_requests",
    "physical writes direct": "physical_writes_direct",
    "segment scans": "table_scans",
    "db block changes": "db_block_changes",
    "row lock waits": "row_lock_waits",
    "itl waits": "itl_waits",
    "buffer busy waits": "buffer_busy_waits",
    "gc buffer busy": "gc_buffer_busy",
    "gc cr blocks received": "gc_cr_blocks_received",
    "gc cu blocks received": "gc_current_blocks_received",
    "gc current blocks received": "gc_current_blocks_received",
    "gc cr blocks served": "gc_cr_blocks_served",
    "gc cu blocks served": "gc_current_blocks_served",
    "gc current blocks served": "gc_current_blocks_served",
    "gc remote grants": "gc_remote_grants",
}

#: Sections whose "Statistic / Total" rows feed ``sysstat``.
SYSSTAT_SECTIONS: frozenset[str] = frozenset(
    {
        "instance activity stats",
        "key instance activity stats",
        "other instance activity stats",
        "system statistics (global)",
    }
)
TABLESPACE_IO_SECTIONS: frozenset[str] = frozenset(
    {"tablespace io stats", "tablespace io stats (global)"}
)

# Column headings that identify a segment rather than carry its figure.
_IDENTITY_COLUMNS: dict[str, str] = {
    "owner": "owner",
    "tablespace name": "tablespace_name",
    "tablespace": "tablespace_name",
    "object name": "object_name",
    "subobject name": "subobject_name",
    "obj. type": "object_type",
    "object type": "object_type",
    "statistic": "statistic",
    "i#": "instance",
    "inst": "instance",
    "inst num": "instance",
}
#: Name columns a text report cuts to their width.
_CUT_NAME_ROLES: tuple[str, ...] = ("owner", "tablespace_name", "object_name", "subobject_name")
#: Not a count (the container columns are read by containers.container_column).
_IGNORED_COLUMNS: frozenset[str] = frozenset({"obj#", "dataobj#", "pdb name", "con id", "con#"})


def normalize(text: str) -> str:
    """Lower-case ``text`` with runs of whitespace (and nbsp) collapsed to one space.

    >>> normalize("Tablespace    Name")
    'tablespace name'
    """
    return " ".join(text.replace("\xa0", " ").split()).lower()


def section_kind(title: str) -> str | None:
    """'segments', 'global_segments', 'compare_segments', 'sysstat', 'tablespace_io' or None for ``title``."""
    name = normalize(title)
    if name.startswith(SEGMENT_SECTION_PREFIX):
        return "segments"
    if name.startswith(COMPARE_SEGMENT_SECTION_PREFIX):
        return "compare_segments"
    if name == GLOBAL_SEGMENT_SECTION:
        return "global_segments"
    if name in SYSSTAT_SECTIONS:
        return "sysstat"
    if name in TABLESPACE_IO_SECTIONS:
        return "tablespace_io"
    return None


def segment_statistic_for_section(title: str) -> str:
    """The statistic key a "Segments by ..." (or "Top Segments Comparison by ...") section carries."""
    name = normalize(title)
    prefix = COMPARE_SEGMENT_SECTION_PREFIX if name.startswith(COMPARE_SEGMENT_SECTION_PREFIX) else SEGMENT_SECTION_PREFIX
    name = name[len(prefix) :]
    return SEGMENT_SECTION_STATISTICS.get(name, snake_case(name))


def global_statistic_key(name: str) -> str:
    """The statistic key for a V$SEGSTAT name printed in Segment Statistics (Global)."""
    normalized = normalize(name)
    return GLOBAL_SEGMENT_STATISTICS.get(normalized, snake_case(normalized))


def is_section_end_marker(text: str) -> bool:
    """True for 'End of Report', which both formats print last."""
    return text.strip() == "End of Report"


@dataclass(frozen=True)
class SegmentColumns:
    """Where each field sits in a segment table's rows (indexes into a row)."""

    identity: dict[str, int]
    value: int
    value_heading: str = ""
    percent_total: int | None = None
    container: int | None = None  # the "PDB Name" (or Con Id) column of a CDB-level report

    @classmethod
    def from_headings(cls, headings: Sequence[str]) -> SegmentColumns | None:
        """Locate the columns; None when the headings are not a segment table.

        The figure is the raw count: the first column that is neither an
        identity column, nor a percentage, nor a per-second rate.
        """
        identity: dict[str, int] = {}
        value: int | None = None
        percent_total: int | None = None
        for index, heading in enumerate(headings):
            name = normalize(heading)
            role = _IDENTITY_COLUMNS.get(name)
            if role is not None:
                identity.setdefault(role, index)
            elif value is None and _is_count_heading(name):
                value = index
            elif name == "%total" and percent_total is None:
                percent_total = index
        if value is None or not {"owner", "object_name"} <= identity.keys():
            return None
        return cls(identity=identity, value=value, value_heading=clean(headings[value]), percent_total=percent_total,
                   container=container_column([normalize(heading) for heading in headings]))

    def cell(self, row: Sequence[str], role: str) -> str:
        index = self.identity.get(role)
        if index is None or index >= len(row):
            return ""
        return " ".join(row[index].replace("\xa0", " ").split())

    def figure(self, row: Sequence[str], statistic: str, widths: Sequence[int] | None = None) -> SegmentFigure | None:
        """One row as a figure; None when the row names no segment or its count is blank.

        A count printed as ``#####`` gives a figure whose value is None (unknown); any other text
        that is not a number raises :class:`CellProblem`. ``widths`` (text reports: each column's width)
        mark the names that fill their column as cut.
        """
        if self.value >= len(row) or is_blank(row[self.value]):
            return None
        owner = self.cell(row, "owner")
        if not (owner or self.cell(row, "object_name")):
            return None
        value = strict_count(row[self.value], column=self.value_heading)
        instance = parse_count(self.cell(row, "instance")) if "instance" in self.identity else None
        return SegmentFigure(
            owner=owner,
            tablespace_name=self.cell(row, "tablespace_name"),
            object_name=self.cell(row, "object_name"),
            subobject_name=self.cell(row, "subobject_name"),
            object_type=self.cell(row, "object_type"),
            statistic=statistic,
            value=value,
            instance_number=instance,
            truncated_fields=self._filled(row, widths) if widths else (),
            container=clean(row[self.container]) if self.container is not None and self.container < len(row) else "",
        )

    def _filled(self, row: Sequence[str], widths: Sequence[int]) -> tuple[str, ...]:
        """The name fields whose printed text fills its column: the report cut them to fit."""
        return tuple(
            role for role in _CUT_NAME_ROLES
            if (index := self.identity.get(role)) is not None and index < len(widths)
            and len(self.cell(row, role)) >= widths[index]
        )

    def percent(self, row: Sequence[str]) -> float | None:
        """The row's %Total, when the table prints one and it is a number."""
        if self.percent_total is None or self.percent_total >= len(row):
            return None
        return parse_number(row[self.percent_total])

    def printed(self, row: Sequence[str]) -> str:
        return clean(row[self.value]) if self.value < len(row) else ""


class CellOverflow(ValueError):
    """A row whose count is printed as ``#####``, where the figure has no unknown: the caller notes it."""

    def __init__(self, name: str) -> None:
        self.name = name
        super().__init__(name)


def overflow_row_note(what: str, name: str, *, section: str, line: int | None, filename: str) -> str:
    """The note for a tablespace or statistic row left out because a count is printed as ``#####``."""
    where = ", ".join(part for part in (filename, f"line {line}" if line else "") if part)
    return (f"{where}: {what} {name!r} in section {section!r} has a count printed as ##### (too wide for its "
            "column): unknown, so that row was not stored")


def listed_segment_rows(
    columns: SegmentColumns,
    rows: Iterable[tuple[int | None, str, Sequence[str]]],
    statistic: str | None,
    *,
    section: str,
    filename: str,
    widths: Sequence[int] | None = None,
) -> list[ListedRow]:
    """The segment rows of one table, each (file line, "row k" or "", cells); ``statistic`` None reads
    it from each row (Segment Statistics (Global)). A bad cell refuses the report (see cells.py)."""
    listed: list[ListedRow] = []
    for line, where, row in rows:
        row_statistic = statistic
        if row_statistic is None:
            name = columns.cell(row, "statistic")
            if not name:
                continue
            row_statistic = global_statistic_key(name)
        try:
            figure = columns.figure(row, row_statistic, widths)
        except CellProblem as problem:
            raise refusal(problem, section=section, where=where, filename=filename, line=line) from None
        if figure is not None:
            check_names([figure], section=section, filename=filename, line=line)
            located = ", ".join(part for part in (f"line {line}" if line else "", where) if part)
            listed.append(ListedRow(figure, columns.percent(row), located, columns.printed(row)))
    return listed


def _is_count_heading(name: str) -> bool:
    if not name or name in _IGNORED_COLUMNS or "%" in name:
        return False
    return not ("per sec" in name or name.endswith("/s") or "per trans" in name)


@dataclass(frozen=True)
class TablespaceColumns:
    """Where name, reads, average read time and writes sit in Tablespace IO rows."""

    name: int
    reads: int
    av_read_ms: int | None
    writes: int
    container: int | None = None  # the "PDB Name" column of a CDB-level report

    @classmethod
    def from_headings(cls, headings: Sequence[str]) -> TablespaceColumns | None:
        squashed = [normalize(heading).replace(" ", "") for heading in headings]
        if "tablespace" not in squashed or "reads" not in squashed or "writes" not in squashed:
            return None
        av_read_ms = squashed.index("avrd(ms)") if "avrd(ms)" in squashed else None
        writes = squashed.index("writes")
        if "1-bkrds/s" in squashed and "%optreads" not in squashed:
            # 11.2.0.4 prints the 1-block-read headings without their figures:
            # the column headed "1-bk Rds/s" holds the writes (they then add
            # up to 'physical write IO requests', as in every other release).
            writes = squashed.index("1-bkrds/s")
        return cls(
            name=squashed.index("tablespace"),
            reads=squashed.index("reads"),
            av_read_ms=av_read_ms,
            writes=writes,
            container=container_column([normalize(heading) for heading in headings]),
        )

    def figure(self, row: Sequence[str]) -> TablespaceFigure | None:
        """One row as a figure; None for short rows or rows without a name or with blank counts.

        Raises :class:`CellProblem` for a count that is not a number, and :class:`CellOverflow` when
        a count is printed as ``#####`` (the caller notes the row; tablespace IO has no unknown).
        """
        if max(self.name, self.reads, self.writes, self.av_read_ms or 0) >= len(row):
            return None
        name = " ".join(row[self.name].split())
        if not name or is_blank(row[self.reads]) or is_blank(row[self.writes]):
            return None
        reads = strict_count(row[self.reads], column="Reads")
        writes = strict_count(row[self.writes], column="Writes")
        av_read_ms = None
        if self.av_read_ms is not None and not is_blank(row[self.av_read_ms]):
            av_read_ms = strict_number(row[self.av_read_ms], column="Av Rd(ms)")
        if reads is None or writes is None:
            raise CellOverflow(name)
        container = clean(row[self.container]) if self.container is not None and self.container < len(row) else ""
        return TablespaceFigure(name=name, reads=reads, av_read_ms=av_read_ms, writes=writes, container=container)

    def kept_figure(
        self, row: Sequence[str], *, section: str, where: str, filename: str, line: int | None, notes: list[str]
    ) -> TablespaceFigure | None:
        """:meth:`figure` for a reader: a row whose count is printed as ``#####`` is noted in ``notes`` and
        left out (None); a count that is not a number or a name longer than Oracle allows is refused
        (AwrReportError naming the section, ``where`` in it, the file and the line)."""
        try:
            figure = self.figure(row)
        except CellProblem as problem:
            raise refusal(problem, section=section, where=where, filename=filename, line=line) from None
        except CellOverflow as overflow:
            notes.append(overflow_row_note("tablespace", overflow.name, section=section, line=line, filename=filename))
            return None
        if figure is not None:
            check_names([figure], section=section, filename=filename, line=line)
        return figure


_RELEASE_RE = re.compile(r"^(\d+)\.\d+")


def release_major(release: str) -> int | None:
    """The major version of a printed release ("11.2.0.4.0" -> 11), or None."""
    match = _RELEASE_RE.match(release.strip())
    return int(match.group(1)) if match else None
