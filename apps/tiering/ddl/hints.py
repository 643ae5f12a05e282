"""``STORAGE (FLASH_CACHE KEEP|NONE|DEFAULT)`` statements for a segment, or comments saying why none.

Pure: standard library only.
"""

from __future__ import annotations

from apps.tiering.ddl.base import (
    DICTIONARY_OWNERS,
    FLASH_CACHE_ATTRIBUTES,
    FLASH_CACHE_HINTS,
    DdlError,
    DdlRequest,
    DdlScript,
    comment,
    comment_name,
)
from apps.tiering.moves.movability import LOB_TYPES, TEMP_TYPES, UNDO_TYPES

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
    kind = request.segment_type()
    storage = f"STORAGE ({attribute} {hint_word})"
    statement = _flash_cache_statement(request, kind, storage)
    if statement is not None:
        return DdlScript((statement,))
    return DdlScript(tuple(_no_hint_note(request, kind, storage)))


def _flash_cache_statement(request: DdlRequest, kind: str, storage: str) -> str | None:
    if request.owner in DICTIONARY_OWNERS:
        return None
    if kind == "TABLE":
        return f"ALTER TABLE {request.quoted_table()} {storage};"
    if kind == "TABLE PARTITION":
        part = request.quoted(request.subobject(), "partition name")
        return f"ALTER TABLE {request.quoted_table()} MODIFY PARTITION {part} {storage};"
    if kind == "INDEX":
        return f"ALTER INDEX {request.quoted_object()} {storage};"
    if kind == "INDEX PARTITION":
        part = request.quoted(request.subobject(), "partition name")
        return f"ALTER INDEX {request.quoted_object()} MODIFY PARTITION {part} {storage};"
    if kind in LOB_TYPES:
        return _lob_flash_cache_statement(request, kind, storage)
    return None


def _lob_flash_cache_statement(request: DdlRequest, kind: str, storage: str) -> str:
    table = request.quoted_table()
    column = request.quoted_lob_column()
    if kind == "LOBSEGMENT":
        return f"ALTER TABLE {table} MODIFY LOB ({column}) ({storage});"
    level = "PARTITION" if kind == "LOB PARTITION" else "SUBPARTITION"
    part = request.quoted(request.lob_table_partition(), "table_partition_name")
    return f"ALTER TABLE {table} MODIFY {level} {part} LOB ({column}) ({storage});"


def _no_hint_note(request: DdlRequest, kind: str, storage: str) -> list[str]:
    if request.owner in DICTIONARY_OWNERS:
        return [comment("data dictionary objects keep Oracle's own storage settings; nothing to change")]
    if kind in UNDO_TYPES or kind in TEMP_TYPES:
        return [comment(f"{kind} segments take no flash cache hint; nothing to change")]
    if kind in ("TABLE SUBPARTITION", "INDEX SUBPARTITION"):
        parent = "table" if kind == "TABLE SUBPARTITION" else "index"
        return [
            comment(
                f"Oracle cannot change the storage of an existing {parent} subpartition "
                f"({comment_name(request.subobject_name or '')}); {storage} can only be set for the "
                f"whole {parent} or its partitions"
            )
        ]
    if kind == "LOBINDEX":
        return [comment("a LOB index follows its LOB: set the hint on the LOB segment")]
    return [comment(f"no flash cache DDL is generated for segment type {kind}")]


