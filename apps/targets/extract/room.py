"""Room per tablespace and the disk groups from an offline extract, as the live source finds them.

The extract runs the room statements the monitoring user may be refused (``room.REFUSABLE_STATEMENTS``)
under WHENEVER SQLERROR CONTINUE: a refused one leaves its CSV with the header and the SQL*Plus error
(ORA-00942 or ORA-01031) instead of rows. :func:`refusal` finds that error before the file is typed, and
:func:`extract_room` hands the rows and refusals to ``room.room_from``, the live source's own assembly, so
both fall back the same way and say so in the same notes. An extract made before these files existed
imports as before: the tablespaces' used space from its tablespaces.csv (USED_BYTES), disk groups unknown.
Pure: standard library and the row contract only.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from apps.targets.extract.archive import ExtractFiles, ExtractLimits
from apps.targets.oracle import queries
from apps.targets.oracle.room import REFUSABLE_STATEMENTS, Refused, Room, room_from
from apps.targets.rows import DataFile

#: CSV file -> the view its statement reads (named in the note when refused).
REFUSABLE_FILES: dict[str, str] = {
    f"{stem}.csv": queries.views_read(queries._read_sql(stem))[0] for stem in REFUSABLE_STATEMENTS
}
#: The error sits right after the header (SQL*Plus echoes the failing line, a '*' and "ERROR at line n:").
_SCAN_LINES = 12
_REFUSED = re.compile(rb"^\s*(ORA-0(?:0942|1031))\b")


def refusal(files: ExtractFiles, name: str, limits: ExtractLimits) -> Refused | None:
    """The refusal a refusable file records (its view and ORA- code), else None (it holds rows)."""
    if name not in REFUSABLE_FILES:
        return None
    with files.open(name) as stream:
        for _number in range(_SCAN_LINES):
            line = stream.readline(limits.line_bytes + 1)
            if not line:
                break
            if match := _REFUSED.match(line):
                return Refused(view=REFUSABLE_FILES[name], code=match.group(1).decode("ascii"))
    return None


def extract_room(cursor: Callable[[str], Any], *, present: Mapping[str, bool], refusals: Mapping[str, Refused],
                 datafiles: Sequence[DataFile]) -> Room:
    """The room of an extract: ``cursor(name)`` replays a file's typed rows, ``present`` says which files the
    extract has, ``refusals`` which of them recorded a refused statement."""

    def said(name: str, fetch: Callable[..., Any]) -> Any:
        if name in refusals:
            return refusals[name]
        if not present.get(name):
            return None  # an older extract: not read
        return fetch(cursor(name), mode="nopack")

    spaces = queries.fetch_tablespaces(cursor("tablespaces.csv"), mode="nopack")
    return room_from(spaces, usage=said("tablespace_usage.csv", queries.fetch_tablespace_usage),
                     free=said("free_space.csv", queries.fetch_free_space),
                     disk_groups=said("asm_diskgroups.csv", queries.fetch_asm_diskgroups), datafiles=datafiles)
