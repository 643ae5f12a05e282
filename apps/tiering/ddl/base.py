"""What every statement builder shares: releases, identifiers, the request and the script.

Pure: standard library and the segment types of ``apps.tiering.moves.movability``.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from apps.tiering.moves.movability import LOB_TYPES

#: First release (major, minor) that supports each feature.
FEATURE_SINCE: dict[str, tuple[int, int]] = {
    # Identifiers up to 128 bytes (12.2 New Features, "Long Identifiers"; SQL
    # Language Reference 12.2, "Database Object Naming Rules"). Needs
    # COMPATIBLE >= 12.2 as well; before that the limit is 30 bytes.
    "long_identifiers": (12, 2),
    # ALTER TABLE ... MOVE ONLINE for non-partitioned tables, with automatic
    # index maintenance (12.2 New Features, "Online Table Move"; SQL Language
    # Reference 12.2, move_table_clause: MOVE [filter] [ONLINE] [segment attrs]).
    "online_table_move": (12, 2),
    # UPDATE INDEXES on a non-partitioned table MOVE (same 12.2 move_table_clause);
    # before 12.2 the move leaves every index UNUSABLE.
    "update_indexes_table_move": (12, 2),
    # ALTER TABLE ... MOVE PARTITION|SUBPARTITION ... ONLINE (12.1 New Features,
    # "Online Partition Move"; move_table_partition: ... [update_index_clauses] ... [ONLINE]).
    "online_partition_move": (12, 1),
    # UPDATE INDEXES on partition maintenance, MOVE PARTITION included (9i).
    "update_indexes_partition_move": (9, 0),
    # ALTER INDEX ... REBUILD [PARTITION|SUBPARTITION] ... ONLINE (8i).
    "online_index_rebuild": (8, 1),
}

#: Owners whose segments are data dictionary objects Oracle does not support moving.
DICTIONARY_OWNERS: frozenset[str] = frozenset({"SYS"})

FLASH_CACHE_HINTS: frozenset[str] = frozenset({"KEEP", "NONE", "DEFAULT"})
#: FLASH_CACHE is the Database Smart Flash Cache hint; CELL_FLASH_CACHE the Exadata one.
FLASH_CACHE_ATTRIBUTES: frozenset[str] = frozenset({"FLASH_CACHE", "CELL_FLASH_CACHE"})

ReleaseLike = str | tuple[int, int]

_RELEASE_RE = re.compile(r"^\s*(\d+)(?:[.](\d+))?")
_CONTROL_RE = re.compile(r"[\x00-\x1f\x7f]")


class DdlError(ValueError):
    """The DDL cannot be written: a bad name, a missing input, an unknown hint."""


@dataclass(frozen=True)
class DdlRequest:
    """One segment and where it should go, as DBA_SEGMENTS and friends name it.

    ``object_type`` uses DBA_SEGMENTS.SEGMENT_TYPE spelling. For partitions
    ``object_name`` is the table or index name and ``subobject_name`` the
    (sub)partition name, as in DBA_SEGMENTS.

    LOB segments (LOBSEGMENT, LOB PARTITION, LOB SUBPARTITION) need
    ``partitioned_parent`` = the table (DBA_LOBS.TABLE_NAME) and
    ``lob_column`` = the column name alone (DBA_LOBS.COLUMN_NAME). A LOB
    (sub)partition also needs ``table_partition_name``: the *table*
    (sub)partition it belongs to (DBA_LOB_PARTITIONS.PARTITION_NAME or
    DBA_LOB_SUBPARTITIONS.SUBPARTITION_NAME), because DBA_SEGMENTS only gives
    the LOB partition's own name.

    ``table_indexes`` lists (owner, index name) of the table's indexes; they
    are rebuilt after a non-partitioned table or LOB move that cannot keep them
    usable (before 12.2, or with ``online=False`` before 12.2). ``online=False``
    asks for the offline form even where ONLINE is available.
    ``release`` is V$INSTANCE.VERSION (e.g. "19.0.0.0.0") or (major, minor).
    ``name_truncated``: a text report cut the name short; no statement names it.
    """

    owner: str
    object_name: str
    object_type: str
    release: ReleaseLike
    subobject_name: str | None = None
    target_tablespace: str | None = None
    partitioned_parent: str | None = None
    lob_column: str | None = None
    table_partition_name: str | None = None
    table_indexes: tuple[tuple[str, str], ...] = ()
    online: bool = True
    name_truncated: bool = False

    # What a statement names: each raises DdlError saying which input is missing for which segment.

    def segment_type(self) -> str:
        """``object_type`` in one spelling: upper case, single spaces ("table  partition" -> "TABLE PARTITION")."""
        if not isinstance(self.object_type, str) or not self.object_type.strip():
            raise DdlError(f"object_type is empty for {self.owner}.{self.object_name}")
        return " ".join(self.object_type.upper().split())

    def supports(self, feature: str) -> bool:
        """Whether this request's release has ``feature`` (:data:`FEATURE_SINCE`)."""
        return supports(feature, self.release)

    def quoted(self, name: str, what: str) -> str:
        """``name`` as an identifier of this request's release (``what`` names it in an error)."""
        return quote_identifier(name, release=self.release, what=what)

    def quoted_object(self) -> str:
        """``"OWNER"."OBJECT_NAME"``: the table or index itself."""
        return qualified_name(self.owner, self.object_name, release=self.release)

    def quoted_table(self) -> str:
        """The table a statement alters: a LOB's table (``partitioned_parent``), else the object itself."""
        if self.segment_type() not in LOB_TYPES:
            return self.quoted_object()
        parent = self._required("partitioned_parent", "the table, DBA_LOBS.TABLE_NAME")
        return qualified_name(self.owner, parent, release=self.release)

    def quoted_tablespace(self) -> str:
        tablespace = self._required("target_tablespace", "where the segment moves to")
        return self.quoted(tablespace, "target tablespace")

    def subobject(self) -> str:
        """The (sub)partition's own name."""
        return self._required("subobject_name", "the partition or subpartition name")

    def quoted_lob_column(self) -> str:
        column = self._required("lob_column", "DBA_LOBS.COLUMN_NAME")
        return self.quoted(column, "lob_column")

    def lob_table_partition(self) -> str:
        """A LOB (sub)partition's *table* (sub)partition: the name its statements use."""
        return self._required("table_partition_name", "DBA_LOB_PARTITIONS.PARTITION_NAME / "
                                                      "DBA_LOB_SUBPARTITIONS.SUBPARTITION_NAME")

    def _required(self, field: str, what: str) -> str:
        value = getattr(self, field)
        if not value:
            partition = f" {self.subobject_name}" if self.subobject_name else ""
            raise DdlError(f"{self.object_type} {self.owner}.{self.object_name}{partition}: {field} is needed ({what})")
        return str(value)


@dataclass(frozen=True)
class DdlScript:
    """Lines of a script: statements end with ';', comments start with '-- '."""

    lines: tuple[str, ...]

    @property
    def statements(self) -> tuple[str, ...]:
        return tuple(line for line in self.lines if not line.startswith("--"))

    @property
    def comments(self) -> tuple[str, ...]:
        return tuple(line for line in self.lines if line.startswith("--"))

    def text(self) -> str:
        """The script as SQL*Plus runs it, one line per statement or comment."""
        return "".join(line + "\n" for line in self.lines)



# --------------------------------------------------------------------------- releases


@functools.lru_cache(maxsize=64)
def parse_release(release: ReleaseLike) -> tuple[int, int]:
    """Return (major, minor) from "19.0.0.0.0", "12.2.0.1", "23ai" or a tuple.

    >>> parse_release("12.2.0.1.0")
    (12, 2)
    >>> parse_release("23ai")
    (23, 0)
    """
    if isinstance(release, tuple):
        if len(release) == 2 and all(isinstance(part, int) and part >= 0 for part in release):
            return release
        raise DdlError(f"release must be (major, minor) integers, got {release!r}")
    match = _RELEASE_RE.match(release) if isinstance(release, str) else None
    if match is None:
        raise DdlError(f"release must look like '19.0.0.0.0' or '12.2', got {release!r}")
    return int(match.group(1)), int(match.group(2) or 0)


def supports(feature: str, release: ReleaseLike) -> bool:
    """True when ``release`` has ``feature`` (a key of :data:`FEATURE_SINCE`)."""
    if feature not in FEATURE_SINCE:
        raise DdlError(f"unknown feature {feature!r}; known: {', '.join(sorted(FEATURE_SINCE))}")
    return parse_release(release) >= FEATURE_SINCE[feature]


def max_identifier_bytes(release: ReleaseLike) -> int:
    """128 bytes from 12.2 (with COMPATIBLE >= 12.2), 30 bytes before."""
    return 128 if supports("long_identifiers", release) else 30


# --------------------------------------------------------------------------- identifiers


@functools.lru_cache(maxsize=65536)  # pure; an export quotes the same owners and tables row after row
def quote_identifier(name: str, *, release: ReleaseLike = "19.0", what: str = "name") -> str:
    """Return ``name`` as an Oracle quoted identifier, exactly as spelled.

    Raises :class:`DdlError` (naming ``what``) for names Oracle cannot have:
    empty, containing a double quotation mark (not allowed even in quoted
    identifiers, SQL Language Reference "Database Object Naming Rules"),
    containing a control character (NUL is forbidden by Oracle; the others
    would break a SQL*Plus script line), or longer than the release allows.
    Length is counted in UTF-8 bytes (AL32UTF8, the default character set).

    >>> quote_identifier("Order Lines")
    '"Order Lines"'
    """
    if not isinstance(name, str) or name == "":
        raise DdlError(f"{what} is empty: Oracle has no zero-length identifiers")
    if '"' in name:
        raise DdlError(
            f"{what} {name!r} contains a double quotation mark, which Oracle does not "
            "allow in any identifier, quoted or not"
        )
    control = _CONTROL_RE.search(name)
    if control is not None:
        raise DdlError(
            f"{what} {name!r} contains the control character U+{ord(control.group()):04X}; "
            "refusing to put it in a script"
        )
    limit = max_identifier_bytes(release)
    size = len(name.encode("utf-8"))
    if size > limit:
        major, minor = parse_release(release)
        raise DdlError(
            f"{what} {name!r} is {size} bytes long; Oracle {major}.{minor} allows at most "
            f"{limit} bytes"
        )
    return f'"{name}"'


def qualified_name(owner: str, name: str, *, release: ReleaseLike = "19.0") -> str:
    """``"OWNER"."NAME"``, both parts quoted."""
    return (
        quote_identifier(owner, release=release, what="owner")
        + "."
        + quote_identifier(name, release=release, what="object name")
    )



def in_container(script: DdlScript, container: str) -> DdlScript:
    """``script`` run in the PDB ``container`` of a CDB: ALTER SESSION SET CONTAINER first, when it has a
    statement and a container is named ("" for a non-CDB: the script as it is).

    The monitoring connection may be the root or another PDB; the statement switches the DBA's session
    (a common user with SET CONTAINER, SQL Language Reference, ALTER SESSION) to the segment's PDB.

    >>> in_container(DdlScript(('ALTER INDEX "A"."I" REBUILD;',)), "PDB1").lines[0]
    'ALTER SESSION SET CONTAINER = "PDB1";'
    >>> in_container(DdlScript(("-- no change recommended",)), "PDB1").lines
    ('-- no change recommended',)
    """
    if not container or not script.statements:
        return script
    switch = f"ALTER SESSION SET CONTAINER = {quote_identifier(container, what='container (PDB) name')};"
    return DdlScript((switch, *script.lines))


# --------------------------------------------------------------------------- comments


def comment_name(name: str) -> str:
    """A name for a comment line: quoted when valid, else escaped on one line."""
    try:
        return quote_identifier(name, release=(23, 0))
    except DdlError:
        return ascii(name)


def comment(text: str) -> str:
    return "-- " + text
