"""Statements that move a segment to another tablespace, or comments saying why none can.

Pure: standard library only.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from apps.tiering.ddl.base import (
    DdlError,
    DdlRequest,
    DdlScript,
    comment,
    comment_name,
)
from apps.tiering.moves.movability import LOB_TYPES, TEMP_TYPES, UNDO_TYPES, movability, why_not_movable

# --------------------------------------------------------------------------- moves


def move_ddl(request: DdlRequest) -> DdlScript:
    """The statements that move ``request``'s segment to ``target_tablespace``.

    Segments that DDL cannot move get comment lines instead (see module doc).
    """
    kind = request.segment_type()
    note = _unmovable_note(request, kind)
    if note is not None:
        return DdlScript(tuple(note))
    tablespace = request.quoted_tablespace()
    if kind == "TABLE":
        return DdlScript(tuple(_table_move(request, tablespace)))
    if kind in ("TABLE PARTITION", "TABLE SUBPARTITION"):
        level = kind.split()[1]
        return DdlScript(tuple(_partition_move(request, level, request.subobject(), "", tablespace)))
    if kind in ("INDEX", "INDEX PARTITION", "INDEX SUBPARTITION"):
        return DdlScript((_index_rebuild(request, kind, tablespace),))
    if kind in LOB_TYPES:
        return DdlScript(tuple(_lob_move(request, kind, tablespace)))
    return DdlScript((comment(f"no move DDL is generated for segment type {kind}; move it by hand"),))


def move_partitions_ddl(request: DdlRequest, partitions: Sequence[str]) -> DdlScript:
    """Move the named partitions of a partitioned table or index to ``target_tablespace``.

    ``request`` names the table (object_type TABLE or TABLE PARTITION: MOVE
    PARTITION) or the index (INDEX or INDEX PARTITION: REBUILD PARTITION); used
    for the intensity-skew advice ("move the hot partitions, not the table").
    """
    kind = request.segment_type()
    if kind not in ("TABLE", "TABLE PARTITION", "INDEX", "INDEX PARTITION"):
        raise DdlError(
            f"move_partitions_ddl needs a table or an index, got object_type {request.object_type!r}"
        )
    if not partitions:
        raise DdlError("move_partitions_ddl: no partitions named")
    tablespace = request.quoted_tablespace()
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
    table = request.quoted_table()
    if request.online and request.supports("online_table_move"):
        # 12.2 online move keeps DML running and maintains the indexes itself.
        return [
            f"ALTER TABLE {table} MOVE ONLINE {what};",
            comment(
                "if ONLINE is refused (e.g. a domain index, or an index-organized table with "
                "LOB or object columns), run it offline with UPDATE INDEXES"
            ),
        ]
    if request.supports("update_indexes_table_move"):
        return [f"ALTER TABLE {table} MOVE {what} UPDATE INDEXES;"]
    lines = [
        comment("before 12.2 a table MOVE is offline: DML waits, and every index becomes UNUSABLE"),
        f"ALTER TABLE {table} MOVE {what};",
    ]
    lines.extend(_index_rebuilds(request))
    return lines


def _index_rebuilds(request: DdlRequest) -> list[str]:
    if not request.table_indexes:
        return [
            comment(
                "rebuild each index of this table that DBA_INDEXES now shows as UNUSABLE "
                "(ALTER INDEX ... REBUILD ONLINE)"
            )
        ]
    online = " ONLINE" if request.supports("online_index_rebuild") else ""
    lines = []
    for number, (owner, index) in enumerate(request.table_indexes, start=1):
        name = (
            request.quoted(owner, f"table_indexes[{number}] owner")
            + "."
            + request.quoted(index, f"table_indexes[{number}] name")
        )
        lines.append(f"ALTER INDEX {name} REBUILD{online};")
    return lines


def _partition_move(
    request: DdlRequest, level: str, partition: str, lob_clause: str, tablespace: str
) -> list[str]:
    """MOVE PARTITION|SUBPARTITION; ``lob_clause`` replaces TABLESPACE for LOB moves."""
    table = request.quoted_table()
    name = request.quoted(partition, f"{level.lower()} name")
    storage = lob_clause or f"TABLESPACE {tablespace}"
    # UPDATE INDEXES keeps local and global indexes usable; ONLINE (12.1+) comes last
    # in move_table_partition / move_table_subpartition.
    clauses = f"{storage} UPDATE INDEXES"
    lines = []
    if request.online and request.supports("online_partition_move"):
        clauses += " ONLINE"
    else:
        lines.append(comment(f"offline {level.lower()} move: DML on it waits until the move ends"))
    lines.append(f"ALTER TABLE {table} MOVE {level} {name} {clauses};")
    return lines


def _index_rebuild(request: DdlRequest, kind: str, tablespace: str) -> str:
    index = request.quoted_object()
    part = ""
    if kind != "INDEX":
        level = kind.split()[1]
        part = f" {level} " + request.quoted(request.subobject(), f"{level.lower()} name")
    online = (
        " ONLINE"
        if request.online and request.supports("online_index_rebuild")
        else ""
    )
    return f"ALTER INDEX {index} REBUILD{part} TABLESPACE {tablespace}{online};"


def _lob_move(request: DdlRequest, kind: str, tablespace: str) -> list[str]:
    column = request.quoted_lob_column()
    lob_clause = f"LOB ({column}) STORE AS (TABLESPACE {tablespace})"
    note = comment(
        "moving a LOB rebuilds its table (or table partition) segment in place too; "
        "the LOB index moves with the LOB"
    )
    if kind == "LOBSEGMENT":
        return [note, *_whole_table_move(request, lob_clause)]
    level = "PARTITION" if kind == "LOB PARTITION" else "SUBPARTITION"
    return [note, *_partition_move(request, level, request.lob_table_partition(), lob_clause, tablespace)]



def _unmovable_note(request: DdlRequest, kind: str) -> list[str] | None:
    """Comment lines for segments DDL cannot move; None when DDL can."""
    storage = (
        f"the storage that holds tablespace {comment_name(request.target_tablespace)}"
        if request.target_tablespace
        else "the target tier's storage"
    )
    code = movability(request.owner, request.object_name, kind, name_truncated=request.name_truncated)
    if code:
        return [comment(why_not_movable(code, owner=request.owner, object_name=request.object_name,
                                        object_type=kind))]
    if kind in UNDO_TYPES:
        # Undo segments belong to the instance's UNDO_TABLESPACE; only switching
        # that parameter to a new undo tablespace relocates them.
        return [
            comment("undo segments cannot be moved with DDL; to put undo on another tier:"),
            comment(f"1. CREATE UNDO TABLESPACE <new name> with its datafiles on {storage}"),
            comment(
                "2. ALTER SYSTEM SET UNDO_TABLESPACE = <new name> "
                "(on RAC once per instance, with SID='<sid>')"
            ),
            comment(
                "3. drop the old undo tablespace once none of its undo segments is "
                "ONLINE or PENDING OFFLINE"
            ),
        ]
    if kind in TEMP_TYPES:
        return [
            comment("temporary segments are not moved; to put TEMP on another tier:"),
            comment(f"1. CREATE TEMPORARY TABLESPACE <new name> with its tempfiles on {storage}"),
            comment(
                "2. ALTER DATABASE DEFAULT TEMPORARY TABLESPACE <new name>, or ALTER USER ... "
                "TEMPORARY TABLESPACE <new name> for the users that sort"
            ),
        ]
    return None


