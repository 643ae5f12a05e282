"""Large synthetic volumes in the demo's row shapes, for benchmarks.

Everything here is a generator: rows are produced one at a time, never
materialised, so fleet scale (~36M segment-stat rows) streams straight into
COPY or a CSV writer. Deterministic for a seed and fast (about 2 microseconds
a row on CPython 3.11, ~80 s for fleet scale): per-segment parameters are drawn once, per-row noise comes from a
precomputed table instead of a random call.

Tuple layouts (plain tuples, in this order):

``fleet_segments`` -> FLEET_SEGMENT_COLUMNS
    (owner, object_name, subobject_name, object_type, tablespace_name,
     bytes, blocks, obj_number, dataobj_number)

``fleet_segment_stats`` -> FLEET_STAT_COLUMNS
    (snap_id, owner, object_name, subobject_name, object_type, tablespace_name,
     obj_number, dataobj_number, then the ten SEGMENT_STAT_FIELDS of
     apps.targets.rows in their order: physical_read_requests,
     physical_write_requests, physical_reads_blocks, physical_writes_blocks,
     physical_reads_direct_blocks, physical_writes_direct_blocks,
     optimized_physical_reads, logical_reads, db_block_changes, table_scans,
     then space_allocated_bytes)

``fleet_stats`` -> ("target_index", "dbid") + FLEET_STAT_COLUMNS

All counters are interval deltas over one hour (interval 3600 s), non-negative
integers, with requests <= blocks. Hours are hour-major (every segment of
snap n before any of snap n+1), the order a collector inserts them.

Each target of a fleet draws its own segments: ``seed`` picks them, and a
``FleetProfile`` sets how large they run (median size) and how skewed their IO
is (a few hot segments carrying most of it, or IO spread evenly).
manage.py generate_fleet feeds these rows through the collection path
(apps.tiering.demo_fleet); bench/run.py loads them by COPY.

Run ``python -m apps.targets.demo.fleet`` to time the generators.
"""

from __future__ import annotations

import datetime as dt
import math
import random
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from apps.targets.demo.schema import CYCLE_BUSINESS, SNAP_EPOCH_AT, snap_end_at
from apps.targets.demo.simulator import cycle_load
from apps.targets.rows import SEGMENT_STAT_FIELDS, SegmentKey, SegmentStat

BLOCK_SIZE_BYTES = 8192

FLEET_SEGMENT_COLUMNS: tuple[str, ...] = (
    "owner", "object_name", "subobject_name", "object_type", "tablespace_name",
    "bytes", "blocks", "obj_number", "dataobj_number",
)
FLEET_STAT_COLUMNS: tuple[str, ...] = (
    "snap_id", "owner", "object_name", "subobject_name", "object_type", "tablespace_name",
    "obj_number", "dataobj_number", *SEGMENT_STAT_FIELDS, "space_allocated_bytes",
)

#: Fleet scale: 200 targets x 1,072 segments x 168 hours = 36,019,200 segment-stat rows.
FLEET_SCALE_TARGETS = 200
FLEET_SCALE_SEGMENTS_PER_TARGET = 1072
FLEET_SCALE_HOURS = 168

#: First snap_id used by default: 168 hourly snapshots ending Sunday 2026-11-15 22:00 UTC, so the bench's
#: next two hours are the last of a day (its 24th snapshot) and the first of the next day.
DEFAULT_FIRST_SNAP_ID = int((dt.datetime(2026, 11, 8, 23, tzinfo=dt.timezone.utc) - SNAP_EPOCH_AT)
                            / dt.timedelta(hours=1))

_OWNERS = tuple(f"APP{n:02d}" for n in range(1, 21))
_TABLESPACES = ("DATA01", "DATA02", "DATA03", "DATA04", "INDX01", "INDX02", "HIST01", "FLASH01")
_NOISE_SLOTS = 4096  # power of two: rows pick a slot with a mask


@dataclass(frozen=True)
class FleetProfile:
    """How one target's segments are drawn: median size exp(size_log_mean) bytes, IO per GB log-normal with
    sigma ``skew_sigma`` (larger: a few segments carry more of the IO)."""

    size_log_mean: float = 21.5  # median ~2 GB
    skew_sigma: float = 2.0


DEFAULT_PROFILE = FleetProfile()


def profile_for_seed(seed: int) -> FleetProfile:
    """A fleet target's profile, varied by its seed: median segment size 0.5-8 GB, skew sigma 1.2-2.6."""
    rng = random.Random(seed * 7_919 + 1)
    return FleetProfile(size_log_mean=round(rng.uniform(20.1, 22.9), 3), skew_sigma=round(rng.uniform(1.2, 2.6), 3))


@dataclass(frozen=True)
class _FleetSegment:
    identity: tuple[str, str, str, str, str, int, int]  # owner .. tablespace, obj#, dataobj#
    size_bytes: int
    reads_per_hour: float  # at peak load
    writes_per_hour: float
    blocks_per_read: float  # 1.0-1.1 single block, 16-128 for scanned segments
    scanned: bool
    flash_hit_ratio: float
    logical_per_block: float


def _draw_segment(index: int, rng: random.Random, profile: FleetProfile = DEFAULT_PROFILE) -> _FleetSegment:
    owner = _OWNERS[index % len(_OWNERS)]
    kind = rng.random()
    if kind < 0.35:
        object_name, subobject, object_type = f"T{index:07d}", "", "TABLE"
    elif kind < 0.7:
        object_name, subobject, object_type = f"IX{index:07d}", "", "INDEX"
    elif kind < 0.85:
        object_name, subobject, object_type = f"PT{index // 24:06d}", f"P{index % 24:03d}", "TABLE PARTITION"
    elif kind < 0.95:
        object_name, subobject, object_type = f"PX{index // 24:06d}", f"P{index % 24:03d}", "INDEX PARTITION"
    else:
        object_name, subobject, object_type = f"SYS_LOB{index:010d}C00002$$", "", "LOBSEGMENT"
    tablespace = _TABLESPACES[rng.randrange(len(_TABLESPACES))]
    size_bytes = max(65_536, int(math.exp(rng.gauss(profile.size_log_mean, 2.0))) // 65_536 * 65_536)  # median exp(size_log_mean)
    # Skew: a few segments carry most of the IO (log-normal IOPS/GB).
    intensity_per_gb = math.exp(rng.gauss(0.0, profile.skew_sigma))
    iops = intensity_per_gb * size_bytes / 2**30
    scanned = rng.random() < 0.05
    write_share = rng.betavariate(1.2, 4.0)
    obj = 200_000 + index
    return _FleetSegment(
        identity=(owner, object_name, subobject, object_type, tablespace, obj, obj + (index % 7 == 0) * 1_000_000),
        size_bytes=size_bytes,
        reads_per_hour=iops * (1 - write_share) * 3600,
        writes_per_hour=iops * write_share * 3600,
        blocks_per_read=rng.uniform(16, 128) if scanned else rng.uniform(1.0, 1.1),
        scanned=scanned,
        flash_hit_ratio=0.0 if scanned else rng.uniform(0.0, 0.8),
        logical_per_block=rng.uniform(1.0, 1.05) if scanned else rng.uniform(5, 80),
    )


def _draw_segments(n_segments: int, seed: int, profile: FleetProfile = DEFAULT_PROFILE) -> list[_FleetSegment]:
    if n_segments < 0:
        raise ValueError(f"fleet generator: n_segments must be >= 0, got {n_segments}")
    rng = random.Random(seed)
    return [_draw_segment(index, rng, profile) for index in range(n_segments)]


def fleet_segments(n_segments: int, seed: int, profile: FleetProfile = DEFAULT_PROFILE) -> Iterator[tuple[Any, ...]]:
    """Yield ``n_segments`` segment-info tuples (FLEET_SEGMENT_COLUMNS), deterministic for ``seed``."""
    for seg in _draw_segments(n_segments, seed, profile):
        owner, name, sub, object_type, tablespace, obj, dataobj = seg.identity
        yield (owner, name, sub, object_type, tablespace, seg.size_bytes,
               seg.size_bytes // BLOCK_SIZE_BYTES, obj, dataobj)


def _noise_table(seed: int) -> list[float]:
    rng = random.Random(seed ^ 0x5EED)
    return [math.exp(rng.gauss(-0.02, 0.2)) for _ in range(_NOISE_SLOTS)]


def fleet_segment_stats(
    n_segments: int, n_hours: int, seed: int, *, first_snap_id: int = DEFAULT_FIRST_SNAP_ID,
    profile: FleetProfile = DEFAULT_PROFILE,
) -> Iterator[tuple[Any, ...]]:
    """Yield n_segments x n_hours segment-stat tuples (FLEET_STAT_COLUMNS), hour-major.

    The segments are those of ``fleet_segments(n_segments, seed)``; load
    follows the demo's office-hours cycle of each snapshot hour.
    """
    if n_hours < 0:
        raise ValueError(f"fleet generator: n_hours must be >= 0, got {n_hours}")
    mask = _NOISE_SLOTS - 1
    # Hot loop: plain tuples and locals only (about 2 us a row on CPython 3.11).
    params = [
        (seg.identity, seg.reads_per_hour, seg.writes_per_hour, seg.blocks_per_read, seg.scanned,
         seg.flash_hit_ratio, seg.logical_per_block, seg.size_bytes, (index * 2_654_435_761) & mask)
        for index, seg in enumerate(_draw_segments(n_segments, seed, profile))
    ]
    noise = _noise_table(seed)
    for snap_id in range(first_snap_id, first_snap_id + n_hours):
        load = max(0.05, cycle_load(CYCLE_BUSINESS, snap_end_at(snap_id) - dt.timedelta(hours=1)))
        factors = [load * multiplier for multiplier in noise]
        noise_shift = snap_id * 40_503
        head = (snap_id,)
        for identity, reads_ph, writes_ph, per_read, scanned, hit, per_block, size_bytes, slot in params:
            factor = factors[(slot + noise_shift) & mask]
            reads = int(reads_ph * factor)
            writes = int(writes_ph * factor)
            read_blocks = int(reads * per_read)
            write_blocks = writes + (writes >> 2)
            changes = write_blocks * 4
            yield head + identity + (
                reads, writes, read_blocks, write_blocks, read_blocks if scanned else 0, 0, int(reads * hit),
                int(read_blocks * per_block) + changes, changes, reads // 2_000 if scanned else 0, size_bytes,
            )


def fleet_stats(
    n_targets: int = FLEET_SCALE_TARGETS,
    segments_per_target: int = FLEET_SCALE_SEGMENTS_PER_TARGET,
    n_hours: int = FLEET_SCALE_HOURS,
    seed: int = 42,
    *,
    first_snap_id: int = DEFAULT_FIRST_SNAP_ID,
) -> Iterator[tuple[Any, ...]]:
    """Yield a whole fleet's segment stats: ("target_index", "dbid") + FLEET_STAT_COLUMNS.

    Target ``t`` has its own segments (seed + t) and DBID; the defaults give
    fleet scale (~36M rows). Targets come one after the other.
    """
    for target_index in range(n_targets):
        head = (target_index, 3_000_000_000 + target_index)
        for row in fleet_segment_stats(segments_per_target, n_hours, seed + target_index,
                                       first_snap_id=first_snap_id):
            yield head + row


def to_segment_stat(row: tuple[Any, ...]) -> tuple[int, SegmentStat]:
    """Turn a FLEET_STAT_COLUMNS tuple into (snap_id, SegmentStat) for benchmarks of the real ingest path."""
    snap_id, owner, name, sub, object_type, tablespace, obj, dataobj, *figures = row
    counters = dict(zip(SEGMENT_STAT_FIELDS, figures[:-1]))
    return snap_id, SegmentStat(SegmentKey(owner, name, sub, object_type), tablespace, obj, dataobj,
                                space_allocated_bytes=figures[-1], **counters)


def _time_it(label: str, rows: Iterator[tuple[Any, ...]]) -> None:
    started = time.perf_counter()
    count = sum(1 for _ in rows)
    elapsed_s = time.perf_counter() - started
    print(f"{label}: {count:,} rows in {elapsed_s:.2f} s ({count / max(elapsed_s, 1e-9):,.0f} rows/s)")


if __name__ == "__main__":
    _time_it("100k segments x 168 h", fleet_segment_stats(100_000, 168, 42))
