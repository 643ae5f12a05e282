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

Modules by concern: ``base`` (releases, identifiers, DdlRequest, DdlScript),
``moves`` (moves and the comments of segments DDL cannot move), ``hints``
(flash cache hints); :func:`ddl_for_action` here picks one for an action.

Pure: standard library only.
"""

from __future__ import annotations

from collections.abc import Sequence

from apps.tiering.ddl.base import (
    DICTIONARY_OWNERS,
    FEATURE_SINCE,
    FLASH_CACHE_ATTRIBUTES,
    FLASH_CACHE_HINTS,
    DdlError,
    DdlRequest,
    DdlScript,
    ReleaseLike,
    comment,
    in_container,
    max_identifier_bytes,
    parse_release,
    qualified_name,
    quote_identifier,
    supports,
)
from apps.tiering.ddl.hints import flash_cache_ddl
from apps.tiering.ddl.moves import move_ddl, move_partitions_ddl
from apps.tiering.moves.movability import TEMP_TYPES, UNDO_TYPES

__all__ = [
    "DICTIONARY_OWNERS", "FEATURE_SINCE", "FLASH_CACHE_ATTRIBUTES", "FLASH_CACHE_HINTS", "TEMP_TYPES",
    "UNDO_TYPES", "DdlError", "DdlRequest", "DdlScript", "ReleaseLike", "ddl_for_action", "flash_cache_ddl",
    "in_container",
    "max_identifier_bytes", "move_ddl", "move_partitions_ddl", "parse_release", "qualified_name",
    "quote_identifier", "supports",
]


# --------------------------------------------------------------------------- dispatch


def ddl_for_action(
    request: DdlRequest, action: str, *, hot_partitions: Sequence[str] = (), flash_cache_hint: str | None = None,
    onto_flash: bool = False,
) -> DdlScript:
    """The script for an :class:`apps.tiering.rules.Advice` action.

    "move" and "place_ahead" -> :func:`move_ddl`; "move_partitions" -> :func:`move_partitions_ddl`
    with ``hot_partitions``; "flash_cache_keep"/"flash_cache_none" ->
    :func:`flash_cache_ddl`; "not_movable" -> the comment saying why
    (:func:`move_ddl` of such a segment); "keep" -> a comment only.

    A move's ``flash_cache_hint`` (the advice's KEEP or NONE) follows the move
    as its own statement, so the advice never comes without its DDL; a KEEP
    beside a move ``onto_flash`` is the seed's cheap alternative to that move,
    written as a commented statement: one or the other, not both.
    """
    if action in ("move", "place_ahead", "move_partitions"):
        script = move_partitions_ddl(request, hot_partitions) if action == "move_partitions" else move_ddl(request)
        if flash_cache_hint is None:
            return script
        hint = flash_cache_ddl(request, flash_cache_hint)
        if flash_cache_hint == "KEEP" and onto_flash:
            alternative = [comment("instead of the move, a cheap alternative (not both): keep its blocks in the "
                                   "flash cache")]
            alternative += [line if line.startswith("--") else comment(line) for line in hint.lines]
            return DdlScript(script.lines + tuple(alternative))
        return DdlScript(script.lines + hint.lines)
    if action == "flash_cache_keep":
        return flash_cache_ddl(request, "KEEP")
    if action == "flash_cache_none":
        return flash_cache_ddl(request, "NONE")
    if action == "not_movable":
        return move_ddl(request)
    if action == "keep":
        return DdlScript((comment("no change recommended"),))
    raise DdlError(f"unknown action {action!r}")
