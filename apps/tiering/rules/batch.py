"""The rules over a batch: :class:`Columns` of many segments in, :class:`Decisions` out, with numpy.

:func:`decide` and the predicates it reads; the batch itself (its arrays, dtypes and defaults) is in
``columns``, re-exported here.

Pure: standard library and numpy only.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from apps.tiering.moves.movability import CODES as MOVABILITY_CODES
from apps.tiering.moves.movability import MOVES_WITH_LOB, NAME_TRUNCATED
from apps.tiering.rules.columns import Columns
from apps.tiering.rules.figures import (
    _ACTION_FLASH_CACHE_KEEP,
    _ACTION_FLASH_CACHE_NONE,
    _ACTION_KEEP,
    _ACTION_MOVE,
    _ACTION_MOVE_PARTITIONS,
    _ACTION_NOT_MOVABLE,
    _ACTION_NOT_WORTH_MOVING,
    _ACTION_PLACE_AHEAD,
    _FLASH_CACHE_KEEP,
    _FLASH_CACHE_NONE,
    _HINT_KEEP,
    _HINT_NONE,
)
from apps.tiering.rules.findings import FINDING_CODES, WASTE_CAUSES
from apps.tiering.rules.limits import DEFAULT_THRESHOLDS, Limits, merge_thresholds

__all__ = ["Columns", "Decisions", "decide"]

_MOVES_WITH_LOB, _TRUNCATED = MOVABILITY_CODES.index(MOVES_WITH_LOB), MOVABILITY_CODES.index(NAME_TRUNCATED)
_FINDING_BITS = np.array([1 << bit for bit in range(len(FINDING_CODES))], dtype=np.uint32)


@dataclass(frozen=True)
class Decisions:
    """What the rules decided for each row of a Columns, one element per segment.

    ``action`` indexes ACTIONS, ``hint`` HINTS; bit i of ``findings`` is set when
    FINDING_CODES[i] fired. ``keep_current_tier``: the segment stays on its tier
    although the cost model's differs (size unknown, flash veto, or a whole
    skewed table/index). The ratios are NaN where not measurable. The last three
    fields choose the words: ``scan_by_blocks``/``scan_by_direct`` say which scan
    sign reached its threshold, ``waste_cause`` (an index into WASTE_CAUSES) why
    the flash cache holds waste.
    """

    action: np.ndarray
    keep_current_tier: np.ndarray
    hint: np.ndarray
    findings: np.ndarray
    write_fraction: np.ndarray
    blocks_per_read: np.ndarray
    direct_fraction: np.ndarray
    flash_fraction: np.ndarray  # share of the segment's blocks in flash cache, 0..1
    optimized_fraction: np.ndarray  # share of read requests served by flash cache, 0..1
    flash_bytes: np.ndarray
    scan_by_blocks: np.ndarray
    scan_by_direct: np.ndarray
    waste_cause: np.ndarray

    def __len__(self) -> int:
        return len(self.action)


class _MixColumns(NamedTuple):
    """Ratios derived once from the figures; NaN when not measurable."""

    write_fraction: np.ndarray
    blocks_per_read: np.ndarray
    direct_fraction: np.ndarray
    flash_fraction: np.ndarray
    optimized_fraction: np.ndarray
    flash_bytes: np.ndarray


class _Signs(NamedTuple):
    """The predicates more than one rule reads."""

    write_heavy: np.ndarray
    scan_by_blocks: np.ndarray
    scan_by_direct: np.ndarray
    scan_heavy: np.ndarray
    resident: np.ndarray


# --------------------------------------------------------------------------- decide


def decide(columns: Columns, *, thresholds: Mapping[str, float] = DEFAULT_THRESHOLDS) -> Decisions:
    """Apply the seed rules to every segment of ``columns`` at once: findings, hint, action.

    The one implementation of the rules; :func:`advise_many` words its result.
    Actions: "not_movable" (movability: Oracle will not move it by itself, or its
    name was cut short), "move" (to the cost model's tier), "move_partitions" (a
    skewed partitioned table or index: move its hot partitions),
    "place_ahead" (a move of an empty partition newer than its table's hot one to
    the hot one's tier: made before its IO comes, so it saves nothing yet),
    "flash_cache_keep", "flash_cache_none", "not_worth_moving" (a move the rules
    allow whose saving does not repay its one-off cost; a hint it wants comes
    first, as a cheaper step), "keep". The cost model's tier is
    overridden (kept on the current tier) when the segment is not movable, its IO
    was not all measured, its size is unknown, it would go to flash although
    the seeds call it a poor flash candidate (undo, large scans), or the move is
    not worth making. Segments that
    are not movable or not measured get no hint and no placement finding: their
    figures cannot carry one.
    """
    limits = merge_thresholds(thresholds)
    mix = _mix(columns, limits)
    signs = _signs(columns, mix, limits)
    place = _placement(columns, signs)
    quiet = place.pinned | columns.unmeasured
    wants_keep = _wants_keep(columns, mix, signs, limits) & ~quiet
    waste_cause = _waste_cause(columns, mix, signs, place, limits)
    waste_cause[quiet] = 0
    fired = {
        "size_unknown": np.isnan(columns.size_bytes),
        "below_awr_capture": columns.below_awr_capture,
        "undo_redo": columns.is_undo,
        "temp_ok": columns.is_temp,
        "write_heavy": signs.write_heavy & ~quiet,
        "full_scan": signs.scan_heavy & ~quiet,
        "already_resident": ~columns.current_is_flash & signs.resident & ~quiet,
        "flash_cache_keep": wants_keep,
        "flash_cache_none": waste_cause != 0,
        "partition_skew": columns.skewed & ~quiet,
        "unmeasured": columns.unmeasured & ~place.pinned,
        "held_back": place.held_back,
        "not_movable": place.pinned & (columns.movability != _MOVES_WITH_LOB) & (columns.movability != _TRUNCATED),
        "moves_with_lob": columns.movability == _MOVES_WITH_LOB,
        "name_truncated": columns.movability == _TRUNCATED,
        "not_worth_moving": place.not_worth,
        "partition_lifecycle": columns.partition_lifecycle,
        "array_tiering": columns.array_tiering & (place.moving | place.whole_skewed),
    }
    # Distinct bits: their sum is their OR.
    findings = (np.stack([fired[code] for code in FINDING_CODES], axis=-1) * _FINDING_BITS).sum(
        axis=-1, dtype=np.uint32
    )
    # The first hint in rule order wins: KEEP (keep rule) before NONE (waste rule).
    hint = _first([(wants_keep, _HINT_KEEP), (fired["flash_cache_none"], _HINT_NONE)], 0, len(columns))
    action = _first(
        [
            (place.pinned, _ACTION_NOT_MOVABLE),
            (place.whole_skewed, _ACTION_MOVE_PARTITIONS),
            (place.moving & columns.placed_ahead, _ACTION_PLACE_AHEAD),
            (place.moving, _ACTION_MOVE),
            (hint == _HINT_KEEP, _ACTION_FLASH_CACHE_KEEP),
            (hint == _HINT_NONE, _ACTION_FLASH_CACHE_NONE),
            (place.not_worth, _ACTION_NOT_WORTH_MOVING),
        ],
        _ACTION_KEEP,
        len(columns),
    )
    return Decisions(
        action=action,
        keep_current_tier=place.keep_current_tier,
        hint=hint,
        findings=findings,
        **mix._asdict(),
        scan_by_blocks=signs.scan_by_blocks,
        scan_by_direct=signs.scan_by_direct,
        waste_cause=waste_cause,
    )


class _Placement(NamedTuple):
    """Where each segment ends up: the tier stays unless ``moving``."""

    pinned: np.ndarray  # no move of its own can relocate it (movability)
    whole_skewed: np.ndarray  # a skewed partitioned table or index: its hot partitions move instead
    keep_current_tier: np.ndarray  # stays on its tier although the cost model's differs
    held_back: np.ndarray  # would move, but back to a tier it left or was advised to leave (hysteresis): it stays
    moving: np.ndarray  # moves to the cost model's tier
    not_worth: np.ndarray  # would move, but the move does not repay its one-off cost: it stays
    final_is_flash: np.ndarray  # on flash after the action


def _placement(columns: Columns, signs: _Signs) -> _Placement:
    assert columns.movability is not None and columns.unmeasured is not None  # Columns.__post_init__ fills them
    pinned = columns.movability != 0
    held = pinned | columns.unmeasured  # never moved on figures that are lower bounds
    onto_flash = columns.recommended_is_flash & ~columns.current_is_flash
    # The undo_redo and full_scan findings veto flash: cost alone must not put these on it.
    vetoed = onto_flash & (columns.is_undo | signs.scan_heavy)
    whole_skewed = columns.skewed & ~columns.is_partition & ~held  # move partitions, not the table
    keep_current_tier = columns.cost_moves & (np.isnan(columns.size_bytes) | vetoed | whole_skewed | held)
    # Hysteresis: a move back the rules allow waits for a clear and lasting change (apps.tiering.moves.hysteresis).
    held_back = columns.cost_moves & ~keep_current_tier & columns.held_back
    keep_current_tier = keep_current_tier | held_back
    # Payback: a move the seed rules allow, whose saving does not repay its one-off cost, is not made.
    not_worth = columns.cost_moves & ~keep_current_tier & columns.not_worth_moving
    keep_current_tier = keep_current_tier | not_worth
    moving = columns.cost_moves & ~keep_current_tier
    return _Placement(
        pinned=pinned,
        whole_skewed=whole_skewed,
        keep_current_tier=keep_current_tier,
        held_back=held_back,
        moving=moving,
        not_worth=not_worth,
        final_is_flash=np.where(moving, columns.recommended_is_flash, columns.current_is_flash),
    )


def _first(choices: list[tuple[np.ndarray, int]], default: int, rows: int) -> np.ndarray:
    """Per row, the code of the first condition that holds, else ``default`` (np.select, lighter)."""
    picked = np.full(rows, default, dtype=np.int8)
    for condition, code in reversed(choices):
        picked[condition] = code
    return picked


# --------------------------------------------------------------------------- predicates


def _mix(columns: Columns, limits: Limits) -> _MixColumns:
    # Fewer than min_requests requests over the window: a mix is noise.
    requests = columns.read_requests + columns.write_requests
    enough = requests >= limits["min_requests"]
    enough_reads = columns.read_requests >= limits["min_requests"]
    flash_bytes = columns.flash_blocks * columns.block_size_bytes  # NaN: not collected
    known_flash = ~np.isnan(flash_bytes) & ~np.isnan(columns.size_bytes)
    return _MixColumns(
        write_fraction=_ratio(columns.write_requests, requests, enough),
        blocks_per_read=_ratio(columns.physical_reads_blocks, columns.read_requests, enough_reads),
        direct_fraction=_ratio(columns.physical_reads_direct_blocks, columns.physical_reads_blocks, enough_reads),
        flash_fraction=np.minimum(1.0, _ratio(flash_bytes, columns.size_bytes, known_flash)),
        optimized_fraction=np.minimum(
            1.0, _ratio(columns.optimized_physical_reads, columns.read_requests, enough_reads)
        ),
        flash_bytes=flash_bytes,
    )


def _ratio(numerator: np.ndarray, denominator: np.ndarray, measurable: np.ndarray) -> np.ndarray:
    """numerator / denominator where measurable and the denominator is not 0, else NaN."""
    quotient = np.full(len(numerator), math.nan)
    np.divide(numerator, denominator, out=quotient, where=measurable & (denominator != 0))
    return quotient


def _signs(columns: Columns, mix: _MixColumns, limits: Limits) -> _Signs:
    own_rule = columns.is_undo | columns.is_temp  # undo and TEMP: their own rules say more
    scan_by_blocks = mix.blocks_per_read >= limits["scan_blocks_per_read"]
    scan_by_direct = mix.direct_fraction >= limits["direct_read_fraction"]
    share = limits["resident_fraction"]
    return _Signs(
        # Harrison: the flash cache speeds up reads only; "if it's very much easier
        # to put blocks into the buffer cache than to write them out ... the buffer
        # cache will fill up with dirty blocks and free buffer waits will result",
        # and in his tests a flash tablespace beat the flash cache for updates.
        write_heavy=~own_rule & (mix.write_fraction >= limits["write_heavy_fraction"]),
        scan_by_blocks=scan_by_blocks,
        scan_by_direct=scan_by_direct,
        # Oracle: "Large Table Scans" are not cost effective on flash; sequential
        # bandwidth on flash was 5x one disk, an "improvement [that] can be matched
        # by using 5 disks". NOCACHE LOBs are read by direct path one chunk at a
        # time: random reads the seed calls flash friendly ("Access to out of line
        # LOB"), not scans.
        scan_heavy=~own_rule & (scan_by_blocks | (~columns.is_lob & scan_by_direct)),
        # Flash over disk: V$BH rows with STATUS 'flash%' show what the flash cache
        # already holds for a segment.
        resident=(mix.flash_fraction >= share) | (mix.optimized_fraction >= share),
    )


def _wants_keep(columns: Columns, mix: _MixColumns, signs: _Signs, limits: Limits) -> np.ndarray:
    # Harrison: "If you can't afford top end flash drives for all your data, then
    # the 11GR2 database flash cache can give you a pretty substantial
    # performance boost" — for reads; KEEP asks it to hold this segment.
    residency_known = ~np.isnan(mix.flash_fraction) | ~np.isnan(mix.optimized_fraction)
    hot = columns.recommended_is_flash | (columns.intensity >= limits["keep_min_intensity"])
    wants: np.ndarray = (
        columns.flash_cache_enabled
        & (columns.flash_cache != _FLASH_CACHE_KEEP)
        & ~columns.current_is_flash
        & ~columns.is_undo
        & ~columns.is_temp
        & ~np.isnan(mix.write_fraction)
        & ~signs.write_heavy
        & ~signs.scan_heavy
        & residency_known
        & ~signs.resident
        & hot
    )
    return wants


def _waste_cause(columns: Columns, mix: _MixColumns, signs: _Signs, place: _Placement, limits: Limits) -> np.ndarray:
    """Why a segment's blocks in the flash cache are waste: index into WASTE_CAUSES, 0 = they are not."""
    # The flash cache is shared: blocks of a segment it cannot help push out
    # blocks of segments it can.
    holds_waste = (columns.flash_cache != _FLASH_CACHE_NONE) & (mix.flash_bytes >= limits["flash_waste_min_bytes"])
    cause = _first(
        [
            (place.final_is_flash, WASTE_CAUSES.index("on_flash")),
            (columns.intensity < limits["cold_intensity"], WASTE_CAUSES.index("cold")),
            (signs.write_heavy, WASTE_CAUSES.index("write_heavy")),
            (signs.scan_heavy, WASTE_CAUSES.index("scan_heavy")),
        ],
        0,
        len(columns),
    )
    cause[~holds_waste] = 0
    return cause

