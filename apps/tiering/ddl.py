"""DDL that carries out a recommendation: move a segment, or set its flash cache hint.

Every identifier is double-quoted exactly as the data dictionary spells it, so
mixed case, spaces, reserved words (``"ORDER"``), ``$``/``#`` and non-ASCII
names come out right. Names Oracle cannot have at all raise :class:`DdlError`.

Release rules (what ONLINE / UPDATE INDEXES each release accepts) live in one
table, :data:`FEATURE_SINCE`; the statement builders ask :func:`supports`.

Segments DDL cannot move (undo, temp, dictionary objects, LOB indexes, ...)
get comment lines saying what to do instead. Comments start with ``-- ``;
statements end with ``;``. Names never reach a comment unquoted, and names with
control characters are refused, so no name can end a comment line early.

Pure: standard library only.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

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

UNDO_TYPES: frozenset[str] = frozenset({"TYPE2 UNDO", "UNDO", "ROLLBACK", "DEFERRED ROLLBACK"})
TEMP_TYPES: frozenset[str] = frozenset({"TEMPORARY"})

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


# --------------------------------------------------------------------------- moves


def move_ddl(request: DdlRequest) -> DdlScript:
    """The statements that move ``request``'s segment to ``target_tablespace``.

    Segments that DDL cannot move get comment lines instead (see module doc).
    """
    kind = _kind(request)
    note = _unmovable_note(request, kind)
    if note is not None:
        return DdlScript(tuple(note))
    tablespace = _tablespace(request)
    if kind == "TABLE":
        return DdlScript(tuple(_table_move(request, tablespace)))
    if kind in ("TABLE PARTITION", "TABLE SUBPARTITION"):
        level = kind.split()[1]
        return DdlScript(tuple(_partition_move(request, level, _subobject(request), "", tablespace)))
    if kind in ("INDEX", "INDEX PARTITION", "INDEX SUBPARTITION"):
        return DdlScript((_index_rebuild(request, kind, tablespace),))
    if kind in ("LOBSEGMENT", "LOB PARTITION", "LOB SUBPARTITION"):
        return DdlScript(tuple(_lob_move(request, kind, tablespace)))
    return DdlScript((_comment(f"no move DDL is generated for segment type {kind}; move it by hand"),))


def move_partitions_ddl(request: DdlRequest, partitions: Sequence[str]) -> DdlScript:
    """Move the named partitions of a partitioned table or index to ``target_tablespace``.

    ``request`` names the table (object_type TABLE or TABLE PARTITION: MOVE
    PARTITION) or the index (INDEX or INDEX PARTITION: REBUILD PARTITION); used
    for the intensity-skew advice ("move the hot partitions, not the table").
    """
    kind = _kind(request)
    if kind not in ("TABLE", "TABLE PARTITION", "INDEX", "INDEX PARTITION"):
        raise DdlError(
            f"move_partitions_ddl needs a table or an index, got object_type {request.object_type!r}"
        )
    if not partitions:
        raise DdlError("move_partitions_ddl: no partitions named")
    tablespace = _tablespace(request)
    lines: list[str] = []
    for partition in partitions:
        if kind.startswith("INDEX"):
            one = replace(request, subobject_name=partition)
            lines.append(_index_rebuild(one, "INDEX PARTITION", tablespace))
        else:
            lines.extend(_partition_move(request, "PARTITION", partition, "", tablespace))
    return DdlScript(tuple(lines))


def _table_move(request: DdlRequest, tablespace: str) -> list[str]:
    return _whole_table_move(request, f"TABLESPACE {tablespace}")


def _whole_table_move(request: DdlRequest, what: str) -> list[str]:
    """MOVE of a non-partitioned table (``what`` = TABLESPACE .. or LOB .. STORE AS ..)."""
    table = _table_name(request)
    if request.online and supports("online_table_move", request.release):
        # 12.2 online move keeps DML running and maintains the indexes itself.
        return [
            f"ALTER TABLE {table} MOVE ONLINE {what};",
            _comment(
                "if ONLINE is refused (e.g. a domain index, or an index-organized table with "
                "LOB or object columns), run it offline with UPDATE INDEXES"
            ),
        ]
    if supports("update_indexes_table_move", request.release):
        return [f"ALTER TABLE {table} MOVE {what} UPDATE INDEXES;"]
    lines = [
        _comment("before 12.2 a table MOVE is offline: DML waits, and every index becomes UNUSABLE"),
        f"ALTER TABLE {table} MOVE {what};",
    ]
    lines.extend(_index_rebuilds(request))
    return lines


def _index_rebuilds(request: DdlRequest) -> list[str]:
    if not request.table_indexes:
        return [
            _comment(
                "rebuild each index of this table that DBA_INDEXES now shows as UNUSABLE "
                "(ALTER INDEX ... REBUILD ONLINE)"
            )
        ]
    online = " ONLINE" if supports("online_index_rebuild", request.release) else ""
    lines = []
    for number, (owner, index) in enumerate(request.table_indexes, start=1):
        name = (
            quote_identifier(owner, release=request.release, what=f"table_indexes[{number}] owner")
            + "."
            + quote_identifier(index, release=request.release, what=f"table_indexes[{number}] name")
        )
        lines.append(f"ALTER INDEX {name} REBUILD{online};")
    return lines


def _partition_move(
    request: DdlRequest, level: str, partition: str, lob_clause: str, tablespace: str
) -> list[str]:
    """MOVE PARTITION|SUBPARTITION; ``lob_clause`` replaces TABLESPACE for LOB moves."""
    table = _table_name(request)
    name = quote_identifier(partition, release=request.release, what=f"{level.lower()} name")
    storage = lob_clause or f"TABLESPACE {tablespace}"
    # UPDATE INDEXES keeps local and global indexes usable; ONLINE (12.1+) comes last
    # in move_table_partition / move_table_subpartition.
    clauses = f"{storage} UPDATE INDEXES"
    lines = []
    if request.online and supports("online_partition_move", request.release):
        clauses += " ONLINE"
    else:
        lines.append(_comment(f"offline {level.lower()} move: DML on it waits until the move ends"))
    lines.append(f"ALTER TABLE {table} MOVE {level} {name} {clauses};")
    return lines


def _index_rebuild(request: DdlRequest, kind: str, tablespace: str) -> str:
    index = qualified_name(request.owner, request.object_name, release=request.release)
    part = ""
    if kind != "INDEX":
        level = kind.split()[1]
        part = f" {level} " + quote_identifier(
            _subobject(request), release=request.release, what=f"{level.lower()} name"
        )
    online = (
        " ONLINE"
        if request.online and supports("online_index_rebuild", request.release)
        else ""
    )
    return f"ALTER INDEX {index} REBUILD{part} TABLESPACE {tablespace}{online};"


def _lob_move(request: DdlRequest, kind: str, tablespace: str) -> list[str]:
    column = _lob_column(request)
    lob_clause = f"LOB ({column}) STORE AS (TABLESPACE {tablespace})"
    note = _comment(
        "moving a LOB rebuilds its table (or table partition) segment in place too; "
        "the LOB index moves with the LOB"
    )
    if kind == "LOBSEGMENT":
        return [note, *_whole_table_move(request, lob_clause)]
    level = "PARTITION" if kind == "LOB PARTITION" else "SUBPARTITION"
    if not request.table_partition_name:
        raise DdlError(
            f"{kind} {request.owner}.{request.object_name} {request.subobject_name or ''}: "
            "table_partition_name is needed (DBA_LOB_PARTITIONS.PARTITION_NAME / "
            "DBA_LOB_SUBPARTITIONS.SUBPARTITION_NAME)"
        )
    return [note, *_partition_move(request, level, request.table_partition_name, lob_clause, tablespace)]


# --------------------------------------------------------------------------- flash cache hints


def flash_cache_ddl(
    request: DdlRequest, hint: str, *, attribute: str = "FLASH_CACHE"
) -> DdlScript:
    """``STORAGE (FLASH_CACHE <hint>)`` for ``request``'s segment.

    ``hint`` is KEEP, NONE or DEFAULT; ``attribute`` FLASH_CACHE (Database Smart
    Flash Cache) or CELL_FLASH_CACHE (Exadata). Oracle has no statement that
    changes the storage of an existing table or index *subpartition*; those,
    and segments without a hint of their own, get a comment instead.
    """
    hint_word = hint.upper() if isinstance(hint, str) else hint
    if hint_word not in FLASH_CACHE_HINTS:
        raise DdlError(f"flash cache hint must be KEEP, NONE or DEFAULT, got {hint!r}")
    if attribute not in FLASH_CACHE_ATTRIBUTES:
        raise DdlError(f"attribute must be FLASH_CACHE or CELL_FLASH_CACHE, got {attribute!r}")
    kind = _kind(request)
    storage = f"STORAGE ({attribute} {hint_word})"
    statement = _flash_cache_statement(request, kind, storage)
    if statement is not None:
        return DdlScript((statement,))
    return DdlScript(tuple(_no_hint_note(request, kind, storage)))


def _flash_cache_statement(request: DdlRequest, kind: str, storage: str) -> str | None:
    if request.owner in DICTIONARY_OWNERS:
        return None
    release = request.release
    if kind == "TABLE":
        return f"ALTER TABLE {_table_name(request)} {storage};"
    if kind == "TABLE PARTITION":
        part = quote_identifier(_subobject(request), release=release, what="partition name")
        return f"ALTER TABLE {_table_name(request)} MODIFY PARTITION {part} {storage};"
    if kind == "INDEX":
        return f"ALTER INDEX {qualified_name(request.owner, request.object_name, release=release)} {storage};"
    if kind == "INDEX PARTITION":
        index = qualified_name(request.owner, request.object_name, release=release)
        part = quote_identifier(_subobject(request), release=release, what="partition name")
        return f"ALTER INDEX {index} MODIFY PARTITION {part} {storage};"
    if kind in ("LOBSEGMENT", "LOB PARTITION", "LOB SUBPARTITION"):
        return _lob_flash_cache_statement(request, kind, storage)
    return None


def _lob_flash_cache_statement(request: DdlRequest, kind: str, storage: str) -> str:
    table = _table_name(request)
    column = _lob_column(request)
    if kind == "LOBSEGMENT":
        return f"ALTER TABLE {table} MODIFY LOB ({column}) ({storage});"
    if not request.table_partition_name:
        raise DdlError(
            f"{kind} {request.owner}.{request.object_name}: table_partition_name is needed "
            "(DBA_LOB_PARTITIONS.PARTITION_NAME / DBA_LOB_SUBPARTITIONS.SUBPARTITION_NAME)"
        )
    level = "PARTITION" if kind == "LOB PARTITION" else "SUBPARTITION"
    part = quote_identifier(
        request.table_partition_name, release=request.release, what="table_partition_name"
    )
    return f"ALTER TABLE {table} MODIFY {level} {part} LOB ({column}) ({storage});"


def _no_hint_note(request: DdlRequest, kind: str, storage: str) -> list[str]:
    if request.owner in DICTIONARY_OWNERS:
        return [_comment("data dictionary objects keep Oracle's own storage settings; nothing to change")]
    if kind in UNDO_TYPES or kind in TEMP_TYPES:
        return [_comment(f"{kind} segments take no flash cache hint; nothing to change")]
    if kind in ("TABLE SUBPARTITION", "INDEX SUBPARTITION"):
        parent = "table" if kind == "TABLE SUBPARTITION" else "index"
        return [
            _comment(
                f"Oracle cannot change the storage of an existing {parent} subpartition "
                f"({_safe(request.subobject_name or '')}); {storage} can only be set for the "
                f"whole {parent} or its partitions"
            )
        ]
    if kind == "LOBINDEX":
        return [_comment("a LOB index follows its LOB: set the hint on the LOB segment")]
    return [_comment(f"no flash cache DDL is generated for segment type {kind}")]


# --------------------------------------------------------------------------- dispatch


def ddl_for_action(
    request: DdlRequest, action: str, *, hot_partitions: Sequence[str] = ()
) -> DdlScript:
    """The script for an :class:`apps.tiering.rules.Advice` action.

    "move" -> :func:`move_ddl`; "move_partitions" -> :func:`move_partitions_ddl`
    with ``hot_partitions``; "flash_cache_keep"/"flash_cache_none" ->
    :func:`flash_cache_ddl`; "keep" -> a comment only.
    """
    if action == "move":
        return move_ddl(request)
    if action == "move_partitions":
        return move_partitions_ddl(request, hot_partitions)
    if action == "flash_cache_keep":
        return flash_cache_ddl(request, "KEEP")
    if action == "flash_cache_none":
        return flash_cache_ddl(request, "NONE")
    if action == "keep":
        return DdlScript((_comment("no change recommended"),))
    raise DdlError(f"unknown action {action!r}")


# --------------------------------------------------------------------------- helpers


def _kind(request: DdlRequest) -> str:
    if not isinstance(request.object_type, str) or not request.object_type.strip():
        raise DdlError(f"object_type is empty for {request.owner}.{request.object_name}")
    return " ".join(request.object_type.upper().split())


def _tablespace(request: DdlRequest) -> str:
    if not request.target_tablespace:
        raise DdlError(
            f"target_tablespace is needed to move {request.owner}.{request.object_name}"
        )
    return quote_identifier(request.target_tablespace, release=request.release, what="target tablespace")


def _subobject(request: DdlRequest) -> str:
    if not request.subobject_name:
        raise DdlError(
            f"{request.object_type} {request.owner}.{request.object_name}: subobject_name "
            "(the partition or subpartition name) is needed"
        )
    return request.subobject_name


def _table_name(request: DdlRequest) -> str:
    """The table a statement alters: the LOB's parent table, else object_name."""
    kind = _kind(request)
    if kind in ("LOBSEGMENT", "LOB PARTITION", "LOB SUBPARTITION"):
        if not request.partitioned_parent:
            raise DdlError(
                f"{kind} {request.owner}.{request.object_name}: partitioned_parent "
                "(the table, DBA_LOBS.TABLE_NAME) is needed"
            )
        return qualified_name(request.owner, request.partitioned_parent, release=request.release)
    return qualified_name(request.owner, request.object_name, release=request.release)


def _lob_column(request: DdlRequest) -> str:
    if not request.lob_column:
        raise DdlError(
            f"{request.object_type} {request.owner}.{request.object_name}: lob_column "
            "(DBA_LOBS.COLUMN_NAME) is needed"
        )
    return quote_identifier(request.lob_column, release=request.release, what="lob_column")


def _unmovable_note(request: DdlRequest, kind: str) -> list[str] | None:
    """Comment lines for segments DDL cannot move; None when DDL can."""
    storage = (
        f"the storage that holds tablespace {_safe(request.target_tablespace)}"
        if request.target_tablespace
        else "the target tier's storage"
    )
    if request.owner in DICTIONARY_OWNERS:
        return [
            _comment(
                f"{_safe(request.owner)}.{_safe(request.object_name)} is a data dictionary object: "
                "Oracle does not support moving it"
            ),
            _comment(
                "SYSAUX occupants can be relocated with the procedure V$SYSAUX_OCCUPANTS.MOVE_PROCEDURE names"
            ),
        ]
    if kind in UNDO_TYPES:
        # Undo segments belong to the instance's UNDO_TABLESPACE; only switching
        # that parameter to a new undo tablespace relocates them.
        return [
            _comment("undo segments cannot be moved with DDL; to put undo on another tier:"),
            _comment(f"1. CREATE UNDO TABLESPACE <new name> with its datafiles on {storage}"),
            _comment(
                "2. ALTER SYSTEM SET UNDO_TABLESPACE = <new name> "
                "(on RAC once per instance, with SID='<sid>')"
            ),
            _comment(
                "3. drop the old undo tablespace once none of its undo segments is "
                "ONLINE or PENDING OFFLINE"
            ),
        ]
    if kind in TEMP_TYPES:
        return [
            _comment("temporary segments are not moved; to put TEMP on another tier:"),
            _comment(f"1. CREATE TEMPORARY TABLESPACE <new name> with its tempfiles on {storage}"),
            _comment(
                "2. ALTER DATABASE DEFAULT TEMPORARY TABLESPACE <new name>, or ALTER USER ... "
                "TEMPORARY TABLESPACE <new name> for the users that sort"
            ),
        ]
    if kind == "LOBINDEX":
        return [_comment("a LOB index cannot be moved by itself: it moves with its LOB segment")]
    return None


def _safe(name: str) -> str:
    """A name for a comment line: quoted when valid, else escaped on one line."""
    try:
        return quote_identifier(name, release=(23, 0))
    except DdlError:
        return ascii(name)


def _comment(text: str) -> str:
    return "-- " + text
