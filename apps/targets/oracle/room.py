"""Room per tablespace and the ASM disk groups under it, from their own views.

Four statements, each in its own file: ``tablespaces.sql`` (DBA_TABLESPACES, DBA_DATA_FILES: size, max size,
autoextend), ``tablespace_usage.sql`` (DBA_TABLESPACE_USAGE_METRICS: used, in blocks), ``free_space.sql``
(DBA_FREE_SPACE: the fallback) and ``asm_diskgroups.sql`` (V$ASM_DISKGROUP_STAT). No pass over DBA_SEGMENTS.

Used space per tablespace, in this order:

1. DBA_TABLESPACE_USAGE_METRICS.USED_SPACE x the tablespace's block size;
2. where that view is not readable (ORA-00942, ORA-01031) or does not list the tablespace (dictionary
   managed): its files' size less its free extents in DBA_FREE_SPACE (none listed: full), except for an
   OFFLINE tablespace, whose extents DBA_FREE_SPACE does not list;
3. else what the tablespaces row says (an older extract's USED_BYTES), else unknown (None), never 0.

A view the monitoring user may not read degrades to the next step with a note naming the view and the
grant; it never stops the collection. :func:`room_from` is the pure part, shared by the live source and
the offline extract (which records a refused statement's error line instead of rows).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

from apps.targets.oracle import queries
from apps.targets.oracle.errors import StatementFailed, error_info, grant_object
from apps.targets.oracle.space import Usage
from apps.targets.rows import DataFile, DiskGroup, TablespaceSpace
from apps.targets.storage import KIND_ASM, location_of

#: Oracle errors that mean "this user may not read the view": table or view does not exist, insufficient
#: privileges.
REFUSED_CODES = frozenset({942, 1031})

#: Statements a monitoring user may be refused without the collection failing: the offline extract runs them
#: with WHENEVER SQLERROR CONTINUE (their file then holds the error) and its reader degrades the same way.
REFUSABLE_STATEMENTS: tuple[str, ...] = ("asm_diskgroups", "free_space", "tablespace_usage")

USAGE_VIEW = "DBA_TABLESPACE_USAGE_METRICS"
FREE_SPACE_VIEW = "DBA_FREE_SPACE"
DISK_GROUP_VIEW = "V$ASM_DISKGROUP_STAT"

T = TypeVar("T")


@dataclass(frozen=True)
class Refused:
    """A statement the monitoring user may not run: its view and the Oracle error ("ORA-00942")."""

    view: str
    code: str


@dataclass(frozen=True)
class Room:
    """What the room statements found: each permanent tablespace's room, the disk groups, and notes."""

    tablespaces: tuple[TablespaceSpace, ...]
    disk_groups: tuple[DiskGroup, ...]
    notes: tuple[str, ...] = ()


# --------------------------------------------------------------------------- live reads


def refused(error: StatementFailed) -> Refused | None:
    """The view and code when ``error`` says the user may not read it (ORA-00942/01031), else None."""
    info = error_info(error.__cause__) if error.__cause__ is not None else None
    if info is None or not (info.code in REFUSED_CODES or info.full_code in ("ORA-00942", "ORA-01031")):
        return None
    return Refused(view=error.views[0] if error.views else error.statement, code=info.full_code or f"ORA-{info.code:05d}")


def _or_refused(read: Callable[[], T]) -> T | Refused:
    try:
        return read()
    except StatementFailed as error:
        said = refused(error)
        if said is None:
            raise
        return said


def room_read(cursor: queries.Cursor, *, mode: str, datafiles: Sequence[DataFile], user: str) -> Room:
    """Read the room statements on a live connection: DBA_FREE_SPACE only where the metrics view leaves a
    permanent tablespace without used space, V$ASM_DISKGROUP_STAT only when a data file is on ASM."""
    spaces = queries.fetch_tablespaces(cursor, mode=mode)
    usage = _or_refused(lambda: queries.fetch_tablespace_usage(cursor, mode=mode))
    need_free = isinstance(usage, Refused) or any(space.tablespace_name not in usage for space in spaces)
    free: dict[str, int | None] | Refused | None = None
    if need_free:
        free = _or_refused(lambda: queries.fetch_free_space(cursor, mode=mode))
    groups: tuple[DiskGroup, ...] | Refused | None = None
    if asm_groups_named(datafiles):
        groups = _or_refused(lambda: queries.fetch_asm_diskgroups(cursor, mode=mode))
    return room_from(spaces, usage=usage, free=free, disk_groups=groups, datafiles=datafiles, user=user)


def asm_groups_named(datafiles: Iterable[DataFile]) -> tuple[str, ...]:
    """The disk groups the files' names give ('+DATA/...' -> 'DATA'), sorted."""
    names = set()
    for row in datafiles:
        if row.file_name.strip().startswith("+"):
            location = location_of(row.file_name)
            if location.kind == KIND_ASM:
                names.add(location.name.lstrip("+"))
    return tuple(sorted(names))


# --------------------------------------------------------------------------- pure assembly


def room_from(spaces: Sequence[TablespaceSpace], *, usage: Mapping[str, Usage] | Refused | None,
              free: Mapping[str, int | None] | Refused | None,
              disk_groups: Sequence[DiskGroup] | Refused | None, datafiles: Sequence[DataFile],
              user: str = "<monitoring user>") -> Room:
    """Each tablespace's used space from the metrics, else free space, else its row; the disk groups as
    read. ``None``: the statement was not run (not needed, or an extract without its file)."""
    notes: list[str] = []
    for said in (usage, free, disk_groups):
        if isinstance(said, Refused):
            notes.append(f"{said.view} not readable ({said.code}): grant it with GRANT SELECT ON "
                         f"{grant_object(said.view)} TO {user} (scripts/oracle/create_monitor_user.sql).")
    metrics = usage if isinstance(usage, Mapping) else {}
    extents = free if isinstance(free, Mapping) else None
    result, unknown = [], []
    for space in spaces:
        used = _used_bytes(space, metrics.get(space.tablespace_name), extents)
        if used is None:
            used = space.used_bytes
        if used is None:
            unknown.append(space.tablespace_name)
        result.append(dataclasses.replace(space, used_bytes=used))
    if unknown:
        notes.append(f"Used space of {', '.join(unknown)} not known ({USAGE_VIEW} and {FREE_SPACE_VIEW} give none): "
                     "whether moves into them have room is not known.")
    groups = tuple(disk_groups) if isinstance(disk_groups, Sequence) else ()
    named = asm_groups_named(datafiles)
    if isinstance(disk_groups, Sequence):
        missing = sorted(set(named) - {group.name for group in groups})
        if missing and not groups:
            notes.append(f"{DISK_GROUP_VIEW} lists no disk group (a pluggable database may see none): the free "
                         f"space of {', '.join('+' + name for name in missing)} is not known.")
        elif missing:
            notes.append(f"{', '.join('+' + name for name in missing)} named by data files but not in "
                         f"{DISK_GROUP_VIEW}: free space not known.")
    return Room(tablespaces=tuple(result), disk_groups=groups, notes=tuple(notes))


def _used_bytes(space: TablespaceSpace, metric: Usage | None,
                extents: Mapping[str, int | None] | None) -> int | None:
    if metric is not None and metric.used_blocks is not None and space.block_size_bytes is not None:
        return metric.used_blocks * space.block_size_bytes
    if extents is None or space.size_bytes is None or space.offline is not False:
        return None
    if space.tablespace_name not in extents:
        return space.size_bytes  # no free extent listed: its files are full
    free_bytes = extents[space.tablespace_name]
    return None if free_bytes is None else space.size_bytes - free_bytes
