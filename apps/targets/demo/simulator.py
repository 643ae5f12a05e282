"""The demo workload: what AWR would have recorded for one hour of the demo database.

Every figure of an hour is a pure function of ``(seed, snap_id)``, and of the moves applied to the
database (apps.targets.demo.moves: a segment in another tablespace from an hour on): each segment
draws from its own ``random.Random`` seeded from (seed, snap_id, segment), so
adding a segment or collecting at another time never changes another figure.

The model: a daily and weekly load curve per cycle (office hours for order
entry, nights for reporting), hourly and per-segment noise with the odd load
spike, the partition heat and sizes from :mod:`schema`, a buffer cache and a
Database Smart Flash Cache of fixed sizes filled by the hottest read-mostly
working sets, and tier latencies per tablespace. The instance restarts every
Sunday at 03:00 UTC (a maintenance window), so cumulative counters reset then.

The caches' contents are planned in ``caches``, the load curves and the restarts are in ``load``
(re-exported here: CachePlacement, cache_plan, the cache sizes, cycle_load, startup_at_for).

Standard library only.
"""

from __future__ import annotations

import datetime as dt
import math
import operator
import random
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from apps.targets.demo import caches, schema
from apps.targets.demo import moves as demo_moves
from apps.targets.demo.caches import BUFFER_CACHE_BYTES, FLASH_CACHE_BYTES, CachePlacement, cache_plan
from apps.targets.demo.load import RESTART_HOUR, RESTART_WEEKDAY, cycle_load, startup_at_for
from apps.targets.demo.moves import Moves, segments_moved
from apps.targets.demo.schema import (
    ACCESS_LOB,
    ACCESS_RANDOM,
    ACCESS_SCAN,
    CYCLE_BATCH,
    CYCLE_BUSINESS,
    CYCLE_FLAT,
    HOUR,
    TABLESPACE_BY_NAME,
    TABLESPACES,
    SegmentSpec,
    snap_end_at,
)
from apps.targets.rows import (
    SEGMENT_STAT_FIELDS,
    CounterSample,
    Residency,
    SegmentKey,
    SegmentStat,
    Snapshot,
    SysStat,
    TablespaceIO,
)

__all__ = [
    "BUFFER_CACHE_BYTES", "FLASH_CACHE_BYTES", "FLASH_CACHE_READ_MS", "INSTANCE_NUMBER", "RESTART_HOUR",
    "RESTART_WEEKDAY", "SYSSTAT_NAMES", "CachePlacement", "cache_plan", "clear_caches", "counter_sample",
    "cycle_load", "residency_at", "simulate_hour", "startup_at_for",
]

INSTANCE_NUMBER = 1
FLASH_CACHE_READ_MS = TABLESPACE_BY_NAME["FLASH_DATA"].read_latency_ms  # the cache sits on the flash tier

#: V$SYSSTAT names the demo reports per snapshot (as deltas) and per sample (cumulative).
SYSSTAT_NAMES: tuple[str, ...] = (
    "physical read IO requests",
    "physical read total IO requests",
    "physical write IO requests",
    "physical reads",
    "physical writes",
    "physical read flash cache hits",
    "flash cache inserts",
    "flash cache eviction: aged out",
    "flash cache insert skip: DBWR overloaded",
    "session logical reads",
    "db block changes",
)

# Sorts and hash joins of the nightly reports spill to TEMP in large requests.
_TEMP_READ_REQUESTS_PER_S = 150.0
_TEMP_WRITE_REQUESTS_PER_S = 120.0

_MASK64 = (1 << 64) - 1
# Random-stream selectors that are not segments (segment streams use obj# / crc32).
_STREAM_HOUR = -1
_STREAM_TEMP = -2
_STREAM_SYSTEM = -3
_STREAM_RESIDENCY = 1 << 40  # added to a segment ordinal


def _stream_seed(seed: int, snap_id: int, stream: int) -> int:
    """Mix (seed, snap_id, stream) into one 64-bit seed (splitmix64 finaliser)."""
    x = (seed * 0x9E3779B97F4A7C15 + snap_id * 0xBF58476D1CE4E5B9 + stream * 0x94D049BB133111EB) & _MASK64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK64
    return x ^ (x >> 31)


def _noise(rng: random.Random, sigma: float) -> float:
    """A log-normal multiplier with mean 1."""
    return math.exp(rng.gauss(-sigma * sigma / 2.0, sigma))


def _integer(expected: float, rng: random.Random) -> int:
    """Round ``expected`` up or down at random so the mean stays ``expected``."""
    whole = math.floor(expected)
    return whole + (1 if rng.random() < expected - whole else 0)


# --- one hour ----------------------------------------------------------------------------


@dataclass(frozen=True)
class _HourContext:
    begin_at: dt.datetime
    hour_noise: float  # shared by every segment this hour (busy or slack day)
    plan: dict[int, CachePlacement]
    cycle_loads: dict[str, float]  # noise-free load of each cycle this hour


def _segment_stat(spec: SegmentSpec, rng: random.Random, ctx: _HourContext) -> SegmentStat:
    wl = spec.workload
    draw = rng.random
    load = ctx.cycle_loads[wl.cycle] * ctx.hour_noise * spec.heat
    reads = _integer(wl.read_requests_per_s * 3600.0 * load * _noise(rng, 0.2), rng)
    read_blocks = reads + round(reads * 0.12 * draw()) if wl.access == ACCESS_RANDOM else reads
    direct_blocks = reads if wl.access == ACCESS_LOB else 0
    scans = _integer(wl.scans_per_hour * load, rng)
    scan_requests = 0
    if wl.access == ACCESS_SCAN and scans:
        scan_blocks = round(scans * spec.blocks * (0.75 + 0.25 * draw()))
        scan_requests = math.ceil(scan_blocks / (48.0 + 80.0 * draw()))  # multi-block reads
        reads += scan_requests
        read_blocks += scan_blocks
        direct_blocks += round(scan_blocks * 0.97)
    writes = _integer(wl.write_requests_per_s * 3600.0 * load * _noise(rng, 0.15), rng)
    write_blocks = writes + round(writes * 0.5 * draw())  # DBWR batches adjacent blocks
    direct_write_blocks = write_blocks if wl.access != ACCESS_RANDOM else 0
    optimized = 0
    placement = ctx.plan.get(spec.dataobj_number) if spec.dataobj_number is not None else None
    if placement is not None and reads and wl.access == ACCESS_RANDOM:
        optimized = min(reads, round(reads * placement.flash_hit_ratio * (0.96 + 0.08 * draw())))
    changes = round(write_blocks * wl.changes_per_write_block * (0.8 + 0.4 * draw()))
    # Every block read through the cache is also a buffer get ('consistent gets direct' count the rest).
    gets_per_block = max(1.0, wl.logical_per_physical * (0.9 + 0.2 * draw()))
    logical = direct_blocks + round((read_blocks - direct_blocks) * gets_per_block)
    return SegmentStat(
        spec.key, spec.tablespace_name, spec.obj_number, spec.dataobj_number,
        physical_read_requests=reads, physical_write_requests=writes,
        physical_reads_blocks=read_blocks, physical_writes_blocks=write_blocks,
        physical_reads_direct_blocks=direct_blocks, physical_writes_direct_blocks=direct_write_blocks,
        optimized_physical_reads=optimized, logical_reads=logical + changes, db_block_changes=changes,
        table_scans=scans, space_allocated_bytes=spec.size_bytes,
    )


def _idle_stat(spec: SegmentSpec) -> SegmentStat:
    zeros: dict[str, Any] = dict.fromkeys(SEGMENT_STAT_FIELDS, 0)  # keyword arguments named at run time
    return SegmentStat(spec.key, spec.tablespace_name, spec.obj_number, spec.dataobj_number,
                       space_allocated_bytes=spec.size_bytes, **zeros)


def _temp_io(seed: int, snap_id: int, ctx: _HourContext) -> tuple[int, int, int, int]:
    """(read requests, write requests, read blocks, write blocks) on TEMP this hour."""
    rng = random.Random(_stream_seed(seed, snap_id, _STREAM_TEMP))
    load = cycle_load(CYCLE_BATCH, ctx.begin_at) * ctx.hour_noise
    reads = _integer(_TEMP_READ_REQUESTS_PER_S * 3600 * load * _noise(rng, 0.25), rng)
    writes = _integer(_TEMP_WRITE_REQUESTS_PER_S * 3600 * load * _noise(rng, 0.25), rng)
    return reads, writes, round(reads * rng.uniform(16, 64)), round(writes * rng.uniform(16, 64))


def _latency_factor(rng: random.Random, ctx: _HourContext) -> float:
    # Disks queue in busy hours; the factor averages about 1 over a day.
    busy = min(1.5, cycle_load(CYCLE_BUSINESS, ctx.begin_at) * ctx.hour_noise)
    return (0.85 + 0.3 * busy) * _noise(rng, 0.12)


def _tablespace_io(
    stats: tuple[SegmentStat, ...], temp: tuple[int, int, int, int], rng: random.Random, ctx: _HourContext,
) -> tuple[TablespaceIO, ...]:
    """Reads and writes per tablespace, timed as a real database's file statistics time them: a read the
    flash cache served at its latency (FLASH_CACHE_READ_MS), the others at the tablespace's tier's.
    """
    totals: dict[str, list[int]] = {ts.name: [0, 0, 0] for ts in TABLESPACES}
    for stat in stats:
        row = totals[stat.tablespace_name]
        row[0] += stat.physical_read_requests or 0
        row[1] += stat.physical_write_requests or 0
        row[2] += stat.optimized_physical_reads or 0
    totals["TEMP"] = [temp[0], temp[1], 0]
    rows = []
    for name, (reads, writes, hits) in totals.items():
        device_ms = TABLESPACE_BY_NAME[name].read_latency_ms
        time_ms = ((reads - hits) * device_ms + hits * FLASH_CACHE_READ_MS) * _latency_factor(rng, ctx)
        rows.append(TablespaceIO(name, reads, writes, round(time_ms, 1)))
    return tuple(rows)


_COUNTERS = operator.attrgetter(*SEGMENT_STAT_FIELDS)


def _column_sums(stats: tuple[SegmentStat, ...]) -> list[int]:
    """Sum of each SEGMENT_STAT_FIELDS counter over ``stats`` (None counts as 0)."""
    if not stats:
        return [0] * len(SEGMENT_STAT_FIELDS)
    # Columns by zip, Nones (and zeros) dropped by filter: loops in C, a fifth of the time of a generator a row.
    return [sum(filter(None, column)) for column in zip(*map(_COUNTERS, stats))]


def _sysstats(
    stats: tuple[SegmentStat, ...], temp: tuple[int, int, int, int], rng: random.Random, ctx: _HourContext,
) -> tuple[SysStat, ...]:
    total = dict(zip(SEGMENT_STAT_FIELDS, _column_sums(stats)))
    reads = total["physical_read_requests"] + temp[0]
    writes = total["physical_write_requests"] + temp[1]
    flash_hits = total["optimized_physical_reads"]
    buffered_misses = sum(
        (s.physical_read_requests or 0) - (s.optimized_physical_reads or 0)
        for s in stats if (s.physical_reads_direct_blocks or 0) == 0
    )
    # Clean buffers aging out of the buffer cache are written to flash; a
    # full flash cache evicts about as much as it takes in.
    inserts = round(buffered_misses * 0.55 * rng.uniform(0.9, 1.1))
    busy = cycle_load(CYCLE_BUSINESS, ctx.begin_at) * ctx.hour_noise
    dbwr_skips = round(total["physical_write_requests"] * max(0.0, busy - 0.75) * 0.4 * rng.uniform(0.8, 1.2))
    # Control file reads and archiver reads of redo are not segment IO.
    other_reads = round(3600 * rng.uniform(1.5, 2.5) + writes * 0.05)
    figures = {
        "physical read IO requests": reads,
        "physical read total IO requests": reads + other_reads,
        "physical write IO requests": writes,
        "physical reads": total["physical_reads_blocks"] + temp[2],
        "physical writes": total["physical_writes_blocks"] + temp[3],
        "physical read flash cache hits": flash_hits,
        "flash cache inserts": inserts,
        "flash cache eviction: aged out": round(inserts * rng.uniform(0.92, 1.0)),
        "flash cache insert skip: DBWR overloaded": dbwr_skips,
        "session logical reads": total["logical_reads"],
        "db block changes": total["db_block_changes"],
    }
    return tuple(SysStat(name, figures[name]) for name in SYSSTAT_NAMES)


# 256 hours hold an 8-day back-fill plus the week a counter sample sums over.
@lru_cache(maxsize=256)
def simulate_hour(seed: int, snap_id: int, dbid: int, moves: Moves = ()) -> Snapshot:
    """The complete AWR snapshot of hour ``snap_id`` for a demo database (seed, dbid), ``moves`` applied
    (apps.targets.demo.moves).

    Pure and cached: the same arguments always give an equal Snapshot.
    """
    end_at = snap_end_at(snap_id)
    begin_at = end_at - HOUR
    hour_rng = random.Random(_stream_seed(seed, snap_id, _STREAM_HOUR))
    spike = 1.5 if hour_rng.random() < 0.02 else 1.0  # the odd runaway report or promotion hour
    cycle_loads = {cycle: cycle_load(cycle, begin_at) for cycle in (CYCLE_BUSINESS, CYCLE_BATCH, CYCLE_FLAT)}
    ctx = _HourContext(begin_at, _noise(hour_rng, 0.08) * spike, cache_plan(snap_id, moves), cycle_loads)
    rng = random.Random()
    stats = []
    for spec in segments_moved(snap_id, moves):
        if spec.heat == 0:
            stats.append(_idle_stat(spec))  # a partition for a month to come: no IO yet
            continue
        rng.seed(_stream_seed(seed, snap_id, spec.ordinal))
        stats.append(_segment_stat(spec, rng, ctx))
    segment_stats = tuple(stats)
    temp = _temp_io(seed, snap_id, ctx)
    system_rng = random.Random(_stream_seed(seed, snap_id, _STREAM_SYSTEM))
    return Snapshot(
        dbid=dbid, instance_number=INSTANCE_NUMBER, snap_id=snap_id, begin_at=begin_at, end_at=end_at,
        startup_at=startup_at_for(snap_id), segment_stats=segment_stats,
        sysstats=_sysstats(segment_stats, temp, system_rng, ctx),
        tablespace_io=_tablespace_io(segment_stats, temp, system_rng, ctx), top_n_only=False,
    )


# --- latest-hour views -------------------------------------------------------------------


def residency_at(seed: int, snap_id: int, moves: Moves = ()) -> tuple[Residency, ...]:
    """V$BH grouped by OBJD at the end of hour ``snap_id``: flash and buffer-cache blocks.

    Objects with no buffers get no row, as GROUP BY objd would return.
    """
    rows = []
    rng = random.Random()
    for spec in segments_moved(snap_id, moves):
        if spec.dataobj_number is None:
            continue
        rng.seed(_stream_seed(seed, snap_id, _STREAM_RESIDENCY + spec.ordinal))
        placement = cache_plan(snap_id, moves).get(spec.dataobj_number)
        if placement is None:
            # Scanned by direct path: only the segment header and a few bitmap blocks.
            header_blocks = rng.randint(1, 4) if spec.heat > 0 else 0
            placement = CachePlacement(header_blocks, 0, 0.0)
        flash = round(placement.flash_blocks * rng.uniform(0.97, 1.0))
        cache = round(placement.cache_blocks * rng.uniform(0.95, 1.0))
        if flash or cache:
            rows.append(Residency(INSTANCE_NUMBER, spec.dataobj_number, flash, cache))
    return tuple(rows)


def counter_sample(seed: int, snap_id: int, dbid: int, moves: Moves = ()) -> CounterSample:
    """Cumulative counters since startup as V$ views would show them at the end of ``snap_id``.

    Consistent with the snapshots: the difference of two samples of the same
    startup equals the sum of the snapshot deltas between them. A segment's
    totals restart when its data object id changes (a MOVE), as V$SEGSTAT's do.
    """
    startup_at = startup_at_for(snap_id)
    first = snap_id
    while first > 0 and startup_at_for(first - 1) == startup_at:
        first -= 1
    snapshots = [simulate_hour(seed, hour, dbid, moves) for hour in range(first, snap_id + 1)]
    latest = snapshots[-1]
    places = {s.key: (s.tablespace_name, s.obj_number, s.dataobj_number) for s in latest.segment_stats}
    counted: dict[SegmentKey, list[SegmentStat]] = {key: [] for key in places}
    for snapshot in snapshots:
        for stat in snapshot.segment_stats:
            place = places.get(stat.key)
            if place is not None and place[2] == stat.dataobj_number:
                counted[stat.key].append(stat)
    sysstat_totals = dict.fromkeys(SYSSTAT_NAMES, 0)
    for snapshot in snapshots:
        for sysstat in snapshot.sysstats:
            sysstat_totals[sysstat.name] += sysstat.value
    return CounterSample(
        instance_number=INSTANCE_NUMBER, startup_at=startup_at, sampled_at=latest.end_at,
        segment_totals={key: dict(zip(SEGMENT_STAT_FIELDS, _column_sums(tuple(stats))))
                        for key, stats in counted.items()},
        segment_places=places, sysstat_totals=sysstat_totals, tablespace_totals=_tablespace_totals(snapshots),
    )


def _tablespace_totals(snapshots: list[Snapshot]) -> dict[str, tuple[int, int, float | None]]:
    totals: dict[str, list[float]] = {ts.name: [0, 0, 0.0] for ts in TABLESPACES}
    for snapshot in snapshots:
        for io in snapshot.tablespace_io:
            row = totals[io.tablespace_name]
            row[0] += io.read_requests
            row[1] += io.write_requests
            row[2] += io.read_time_ms or 0.0
    return {name: (int(reads), int(writes), round(time_ms, 1)) for name, (reads, writes, time_ms) in totals.items()}


def clear_caches() -> None:
    """Forget every memoised hour, cache plan and schema (tests and benchmarks start cold)."""
    simulate_hour.cache_clear()
    caches.clear_plans()
    demo_moves.segments_moved.cache_clear()
    schema.clear_caches()
