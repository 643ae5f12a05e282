"""A multitenant database's containers, and the segments named with theirs.

A CDB's segment belongs to its PDB: the same owner.object in PDB1 and PDB2 are two segments with their
own figures, sizes and moves. ``sql/containers.sql`` (12.1 on) reads which containers the session sees;
a session in a PDB names every DBA_SEGMENTS row with that PDB, and DBA_HIST_SEG_STAT rows carry their own
CON_ID (from the root, AWR holds every PDB's rows), named through the same map. A non-CDB (and every 11.2
database) has no container: keys keep ``container=""``.

Pure apart from the cursor it is given: no Django.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from apps.targets.oracle.features import Features
from apps.targets.oracle.queries import Statement, _int_or_none, _run
from apps.targets.oracle.query_rows import SegStatRow
from apps.targets.rows import SegmentInfo

SQL_CONTAINERS = Statement("containers")


@dataclass(frozen=True)
class Containers:
    """The containers a session sees: CON_ID -> NAME, and the session's own. ``cdb`` False: a non-CDB."""

    cdb: bool = False
    names: dict[int, str] = field(default_factory=dict)
    session_con_id: int | None = None

    @property
    def session(self) -> str:
        """The session's container name ("" for a non-CDB)."""
        if not self.cdb or self.session_con_id is None:
            return ""
        return self.names.get(self.session_con_id, f"CON_ID {self.session_con_id}")

    def name_of(self, con_id: int | None) -> str:
        """The name of container ``con_id``: the session's when the row does not say; "CON_ID n" for a
        container the session cannot see by name (closed, or hidden by CONTAINER_DATA), never merged with
        another.

        >>> Containers(True, {1: "CDB$ROOT", 3: "PDB1"}, 1).name_of(3)
        'PDB1'
        >>> Containers(True, {1: "CDB$ROOT"}, 1).name_of(5)
        'CON_ID 5'
        >>> Containers(False, {0: "X"}, 0).name_of(0)
        ''
        """
        if not self.cdb:
            return ""
        if con_id is None or con_id == 0:  # 0: the whole CDB; the row is the session's
            return self.session
        return self.names.get(con_id, f"CON_ID {con_id}")


def fetch_containers(cursor: Any, *, mode: str, features: Features) -> Containers:
    """The session's containers; a release before 12.1 is a non-CDB and runs nothing."""
    if not features.runs("containers"):
        return Containers()
    rows = _run(cursor, SQL_CONTAINERS, mode=mode, features=features)
    if not rows or str(rows[0]["CDB"] or "").upper() != "YES":
        return Containers()
    names = {int(row["CON_ID"]): str(row["CON_NAME"]) for row in rows if row["CON_ID"] is not None}
    return Containers(cdb=True, names=names, session_con_id=_int_or_none(rows[0]["SESSION_CON_ID"]))


def segments_in(segments: Iterable[SegmentInfo], containers: Containers) -> tuple[SegmentInfo, ...]:
    """DBA_SEGMENTS rows (the session's own container) named with that container."""
    name = containers.session
    if not name:
        return tuple(segments)
    return tuple(replace(info, key=info.key._replace(container=name)) for info in segments)


def seg_stat_in(rows: Iterable[SegStatRow], containers: Containers) -> tuple[SegStatRow, ...]:
    """DBA_HIST_SEG_STAT rows named with the container of their CON_ID."""
    if not containers.cdb:
        return tuple(rows)
    return tuple(replace(row, stat=replace(row.stat, key=row.stat.key._replace(container=containers.name_of(row.con_id))))
                 for row in rows)
