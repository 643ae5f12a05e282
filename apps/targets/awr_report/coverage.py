"""Every segment section read, or a note that says it was passed over.

A "Segments by ..." section the readers cannot read (its title is not a statistic tierscope knows, its
column headings are not where a segment table has them, or its title line is not one the text reader
recognises as a section title) would otherwise leave every segment it lists "not measured" for that
statistic with no word said. Each such section is named in the report's notes, which the import keeps on
its run and shows on the page and in the command's output. Pure: standard library only.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from apps.targets.awr_report.cells import ListedRow
from apps.targets.awr_report.sections import (
    COMPARE_SEGMENT_SECTION_PREFIX,
    GLOBAL_SEGMENT_STATISTICS,
    SEGMENT_SECTION_PREFIX,
    SEGMENT_SECTION_STATISTICS,
    normalize,
    segment_statistic_for_section,
)

#: Titles of sections that list segments: "Segments by X", "Top Segments Comparison by X", "Top Segments by X",
#: "Segment Statistics (Global)".
_SEGMENT_LIKE_RE = re.compile(r"^(?:top\s+)?segments?\s+(?:comparison\s+)?by\s+\S|^segment statistics \(global\)$")
#: A text line that starts like a segment section's title, whatever follows it.
_SEGMENT_TITLE_LINE_RE = re.compile(r"^\s*(?P<title>(?:Top\s+)?Segments?\s+(?:Comparison\s+)?by\s+\S.*?)\s*$",
                                    re.IGNORECASE)
_NO_DATA = "no data exists for this section"


def is_segment_like(title: str) -> bool:
    """True for a section title that announces a list of segments.

    >>> is_segment_like("Segments by Physical Read Requests"), is_segment_like("Undo Segment Stats")
    (True, False)
    """
    return _SEGMENT_LIKE_RE.match(normalize(title)) is not None


def says_no_data(text: str) -> bool:
    """True when a section's body is Oracle's "No data exists for this section of the report."."""
    return _NO_DATA in normalize(text)


def _where(filename: str, line: int | None) -> str:
    return ", ".join(part for part in (filename, f"line {line}" if line else "") if part) or "<report>"


def passed_over_note(title: str, *, reason: str, filename: str, line: int | None) -> str:
    """The note for a segment section that was not read."""
    return (f"Warning: {_where(filename, line)}: section {title!r} was passed over ({reason}): its figures were "
            "not imported, so the segments it lists are not measured for that statistic")


def unknown_statistic_note(title: str, *, filename: str, line: int | None) -> str | None:
    """A note for a "Segments by ..." title whose statistic tierscope does not know (None when it knows it):
    its rows are kept under the title's own name, which no IO figure reads."""
    name = normalize(title)
    for prefix in (COMPARE_SEGMENT_SECTION_PREFIX, SEGMENT_SECTION_PREFIX):
        if name.startswith(prefix):
            if name[len(prefix):] in SEGMENT_SECTION_STATISTICS:
                return None
            return (f"Warning: {_where(filename, line)}: section {title!r} is a statistic tierscope does not know: "
                    f"its figures are kept as {segment_statistic_for_section(title)!r} but give no IO figure")
    return None


def unknown_global_statistic_notes(rows: Sequence[ListedRow], *, title: str, filename: str) -> list[str]:
    """One note per statistic of Segment Statistics (Global) that tierscope does not know, naming its first row."""
    known = set(GLOBAL_SEGMENT_STATISTICS.values())
    first: dict[str, str] = {}
    for row in rows:
        if row.figure.statistic not in known:
            first.setdefault(row.figure.statistic, row.where)
    source = f"{filename}, " if filename else ""
    return [f"Warning: {source}{where}: section {title!r} lists a statistic tierscope does not know ({name!r}): "
            "its figures are kept under that name but give no IO figure" for name, where in first.items()]


def columns_note(title: str, headings: Iterable[str], *, filename: str, line: int | None) -> str:
    """The note for a segment section whose table has no Owner / Object Name / figure columns where expected."""
    shown = ", ".join(" ".join(heading.split()) for heading in headings if heading.strip()) or "none"
    return passed_over_note(title, reason=f"its columns ({shown}) are not a segment table tierscope reads",
                            filename=filename, line=line)


def unrecognised_title_notes(lines: Sequence[str], title_indexes: Iterable[int], *, filename: str) -> list[str]:
    """Notes for text lines that start like a segment section's title but were not taken for one (no
    "DB/Inst: ... Snaps: a-b" the reader recognises after it): that section's rows were passed over."""
    titles = set(title_indexes)
    notes: list[str] = []
    for index, line in enumerate(lines):
        if index in titles or "segment" not in line[:40].lower():
            continue
        match = _SEGMENT_TITLE_LINE_RE.match(line.lstrip("\f"))
        if match is None or not line.lstrip("\f")[:1].strip():
            continue  # indented text ("-> ...", a table cell) is not a title
        notes.append(passed_over_note(match.group("title")[:100], reason="its title line is not one tierscope "
                                      "recognises as a section title", filename=filename, line=index + 1))
    return notes

