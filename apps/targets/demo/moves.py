"""Moves applied to the demo database: a segment moved to another tablespace from a given hour on.

The demo's figures are a pure function of ``(seed, moves, snap_id)``: a move
``(segment, tablespace, from_snap_id)`` puts the segment in that tablespace
from hour ``from_snap_id`` on (its reads then take the latency of the new
tablespace's tier), gives it a new data object id (a MOVE or REBUILD does:
the flash cache's blocks of the old one serve it no more) and, onto the flash
tier, the FLASH_CACHE NONE hint the demo's other flash segments carry (Smart
Flash Cache keeps nothing of a segment already on flash).

Two kinds reach a demo target's source (apps.targets.services.source_for):

* the built-in one (:func:`builtin_moves`): CUSTOMERS_PK moved from SOE_INDEX to
  FLASH_DATA 84 hours (3.5 days) before the hour the target was created, so a
  fresh demo's first collection already holds a move with days before and
  after it;
* the moves of a plan marked executed on the demo target, kept in its
  capabilities under ``demo_moves`` (:func:`moves_to_json`), applied from
  the first hour that begins after the plan was marked.

Standard library only.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from apps.targets.demo.schema import (
    TABLESPACE_BY_NAME,
    TIER_FLASH,
    SegmentSpec,
    first_snap_id_from,
    last_full_snap_id,
    segments_at,
)
from apps.targets.rows import SegmentKey

#: The key of a demo target's capabilities that holds the moves applied to it (plans marked executed).
CAPABILITY_KEY = "demo_moves"
#: The built-in move: which segment, where to, and how long before the target's creation.
BUILTIN_SEGMENT = SegmentKey("SOE", "CUSTOMERS_PK", "", "INDEX")
BUILTIN_TABLESPACE = "FLASH_DATA"
BUILTIN_HOURS_BEFORE = 84
#: A moved segment's new data object id: its old one plus this, once per move applied.
_DATAOBJ_STEP = 700_000


@dataclass(frozen=True, order=True)
class DemoMove:
    """Segment ``key`` lives in ``tablespace_name`` from hour ``from_snap_id`` on."""

    from_snap_id: int
    key: SegmentKey
    tablespace_name: str


Moves = tuple[DemoMove, ...]


def builtin_moves(created_at: dt.datetime) -> Moves:
    """The demo's own past move, 3.5 days before the hour a target created at ``created_at`` began."""
    return (DemoMove(last_full_snap_id(created_at) - BUILTIN_HOURS_BEFORE, BUILTIN_SEGMENT, BUILTIN_TABLESPACE),)


@lru_cache(maxsize=1024)
def segments_moved(snap_id: int, moves: Moves = ()) -> tuple[SegmentSpec, ...]:
    """Every segment of the demo database at the end of hour ``snap_id``, ``moves`` applied (schema.segments_at)."""
    return apply_moves(segments_at(snap_id), moves, snap_id)


def apply_moves(specs: tuple[SegmentSpec, ...], moves: Moves, snap_id: int) -> tuple[SegmentSpec, ...]:
    """``specs`` (the segments at the end of hour ``snap_id``) with the moves made by then applied, in order.

    A move naming a segment that does not exist at that hour, or a tablespace the demo does not have, is
    ignored (a plan's step may name a partition since dropped).
    """
    made: dict[SegmentKey, list[DemoMove]] = {}
    for move in sorted(moves):
        if move.from_snap_id <= snap_id and move.tablespace_name in TABLESPACE_BY_NAME:
            made.setdefault(move.key, []).append(move)
    if not made:
        return specs
    return tuple(_moved(spec, made[spec.key]) if spec.key in made else spec for spec in specs)


def _moved(spec: SegmentSpec, moves: list[DemoMove]) -> SegmentSpec:
    tablespace = moves[-1].tablespace_name
    if tablespace == spec.tablespace_name:
        return spec
    onto_flash = TABLESPACE_BY_NAME[tablespace].tier == TIER_FLASH
    dataobj = None if spec.dataobj_number is None else spec.dataobj_number + _DATAOBJ_STEP * len(moves)
    return replace(spec, tablespace_name=tablespace, dataobj_number=dataobj,
                   flash_cache="NONE" if onto_flash else spec.flash_cache)


def moves_to_json(moves: Moves) -> list[list[Any]]:
    """The moves as a target's capabilities keep them: [owner, object, subobject, type, tablespace, from_snap_id]."""
    return [[*move.key[:4], move.tablespace_name, move.from_snap_id] for move in sorted(moves)]  # a non-CDB


def moves_from_json(rows: Any) -> Moves:
    """The moves a target's capabilities keep (:func:`moves_to_json`); rows of another shape are refused."""
    moves = []
    for row in rows or ():
        if not isinstance(row, (list, tuple)) or len(row) != 6 or not isinstance(row[5], int):
            raise ValueError(f"demo moves: {row!r} is not [owner, object, subobject, type, tablespace, snap_id]")
        moves.append(DemoMove(row[5], SegmentKey(*map(str, row[:4])), str(row[4])))
    return tuple(sorted(moves))


def target_moves(*, created_at: dt.datetime | None, capabilities: dict[str, Any]) -> Moves:
    """The moves a demo target's source applies: the built-in one (from the target's creation time) and
    those its capabilities keep (plans marked executed)."""
    builtin = builtin_moves(created_at) if created_at is not None else ()
    return tuple(sorted((*builtin, *moves_from_json(capabilities.get(CAPABILITY_KEY)))))


def executed_moves(*, executed_at: dt.datetime, moved: list[tuple[SegmentKey, str]]) -> Moves:
    """A plan's moves (segment, tablespace) marked executed at ``executed_at``: applied from the first whole
    hour that begins at or after it."""
    first = first_snap_id_from(executed_at)
    return tuple(sorted(DemoMove(first, key, tablespace) for key, tablespace in moved))
