"""``STORAGE (FLASH_CACHE KEEP|NONE|DEFAULT)`` statements for a segment, or comments saying why none.

Pure: standard library only.
"""

from __future__ import annotations

from apps.tiering.ddl.base import (
    DICTIONARY_OWNERS,
    FLASH_CACHE_ATTRIBUTES,
    FLASH_CACHE_HINTS,
    TEMP_TYPES,
    UNDO_TYPES,
    DdlError,
    DdlRequest,
    DdlScript,
    _comment,
    _kind,
    _lob_column,
    _safe,
    _subobject,
    _table_name,
    qualified_name,
    quote_identifier,
)

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


