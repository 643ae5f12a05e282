"""The demo database's caches: how much of each segment the buffer cache and the Database Smart Flash Cache
hold in an hour, and so which share of its reads the flash cache serves.

Both caches have fixed sizes and are filled by the hottest read-mostly working sets (KEEP pool and
FLASH_CACHE KEEP first); the plan is worked out once a day from the segments as they stand then, moves
applied (apps.targets.demo.moves). Split from ``simulator`` by concern: the simulator reads the plan to
count a segment's optimized reads and V$BH's rows; ``simulator.clear_caches`` forgets the memoised plans.

Standard library only.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from apps.targets.demo.moves import Moves, segments_moved
from apps.targets.demo.schema import ACCESS_RANDOM, BLOCK_SIZE_BYTES, HOUR, SegmentSpec, snap_end_at

FLASH_CACHE_BYTES = 64 * 1024**3  # DB_FLASH_CACHE_SIZE
BUFFER_CACHE_BYTES = 16 * 1024**3  # DB_CACHE_SIZE
# Share of a segment's buffer-cache misses that fall in its working set; the
# rest is the long tail that no cache holds.
_WORKING_SET_READ_SHARE = 0.8


@dataclass(frozen=True)
class CachePlacement:
    """How much of one segment the buffer cache and the flash cache hold."""

    cache_blocks: int
    flash_blocks: int
    flash_hit_ratio: float  # share of buffer-cache misses the flash cache serves (0..0.8)


def _cacheable(spec: SegmentSpec) -> bool:
    # Direct path reads bypass both caches; undo has no data object id in V$BH.
    return (spec.workload.access == ACCESS_RANDOM and spec.dataobj_number is not None
            and spec.heat > 0 and spec.working_set_share > 0)


@dataclass(frozen=True)
class _Candidate:
    spec: SegmentSpec
    working_set_blocks: int
    buffer_rank: tuple[int, float]
    flash_rank: tuple[int, float]


def _candidate(spec: SegmentSpec) -> _Candidate:
    wl = spec.workload
    ws_blocks = max(1, round(spec.blocks * spec.working_set_share))
    read_density = wl.read_requests_per_s * spec.heat / ws_blocks
    # Dirty buffers must be written before they may go to flash.
    flash_density = read_density * (0.15 if wl.write_heavy else 1.0)
    return _Candidate(
        spec, ws_blocks,
        (0 if spec.buffer_pool == "KEEP" else 1, -read_density * wl.logical_per_physical),
        (0 if spec.flash_cache == "KEEP" else 1, -flash_density),
    )


def cache_plan(snap_id: int, moves: Moves = ()) -> dict[int, CachePlacement]:
    """Buffer and flash cache contents during hour ``snap_id``, by data object id.

    The caches settle slowly, so the plan is worked out once a day, from the
    segments as they stand after the day's first hour (same month, so the same
    data object ids; a segment moved later that day gets a new one, which the
    caches hold nothing of until the next day's plan).
    """
    begin_at = snap_end_at(snap_id) - HOUR
    return _cache_plan_after(snap_id - begin_at.hour, moves)


@lru_cache(maxsize=64)
def _cache_plan_after(snap_id: int, moves: Moves = ()) -> dict[int, CachePlacement]:
    """The cache plan for the segments at the end of hour ``snap_id``.

    The buffer cache takes up to a third of each working set (KEEP pool
    first, then by logical-read density); the flash cache then takes the rest
    of the working sets by read density, KEEP hints first, write-heavy
    segments only a fifth of theirs, FLASH_CACHE NONE nothing. Reads outside
    the working set (the long tail) always go to disk.
    """
    candidates = [_candidate(spec) for spec in segments_moved(snap_id, moves) if _cacheable(spec)]
    cache_left = BUFFER_CACHE_BYTES // BLOCK_SIZE_BYTES
    cached: dict[int, int] = {}
    for cand in sorted(candidates, key=lambda c: c.buffer_rank):
        share = 1.0 if cand.spec.buffer_pool == "KEEP" else 0.35
        blocks = min(cache_left, round(cand.working_set_blocks * share))
        cached[id(cand)] = blocks
        cache_left -= blocks
    flash_left = FLASH_CACHE_BYTES // BLOCK_SIZE_BYTES
    plan: dict[int, CachePlacement] = {}
    for cand in sorted(candidates, key=lambda c: c.flash_rank):
        spec = cand.spec
        if spec.dataobj_number is None:  # excluded by _cacheable; keeps the key an int
            continue
        missing = cand.working_set_blocks - cached[id(cand)]
        wanted = 0 if spec.flash_cache == "NONE" else round(missing * (0.2 if spec.workload.write_heavy else 1.0))
        flash = min(flash_left, wanted)
        flash_left -= flash
        hit_ratio = _WORKING_SET_READ_SHARE * flash / missing if missing > 0 else 0.0
        plan[spec.dataobj_number] = CachePlacement(cached[id(cand)], flash, hit_ratio)
    return plan


def clear_plans() -> None:
    """Forget the memoised cache plans (``simulator.clear_caches`` calls this)."""
    _cache_plan_after.cache_clear()
