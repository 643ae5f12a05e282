"""The rules' tunables: every threshold with why it has its default, and how overrides are checked.

Pure: standard library only.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from types import MappingProxyType

#: Every tunable of the rules, with why it has its default. Values are numbers.
DEFAULT_THRESHOLDS: dict[str, float] = {
    # With fewer IO requests than this over the window, a read/write mix or a
    # blocks-per-read average is noise (one nightly job): those rules stay quiet.
    "min_requests": 1000,
    # Writes as a share of IO requests from which a segment is write-heavy: past
    # half, the flash cache (reads only) misses most of its IO.
    "write_heavy_fraction": 0.5,
    # Average blocks per physical read request from which reads are mostly
    # multi-block scans. A random read is 1 block; a scan read is up to
    # db_file_multiblock_read_count blocks (128 x 8 KB = 1 MB by default).
    "scan_blocks_per_read": 8.0,
    # Share of blocks read by direct path from which reads are mostly direct
    # (serial direct scans, parallel query). Direct reads skip the buffer cache,
    # so the flash cache never sees them.
    "direct_read_fraction": 0.5,
    # Hottest / median partition intensity from which partitions "differ
    # widely" (an order of magnitude).
    "partition_skew_ratio": 10.0,
    # A partition is hot when its intensity is at least this share of the
    # hottest one's (within an order of magnitude of it).
    "partition_hot_fraction_of_max": 0.1,
    # Skew among partitions all below this intensity does not matter: 0.1 IO/s
    # per GB is the seed's hi-cap disk tier intensity, below which every
    # partition belongs on the cheapest disk anyway.
    "partition_skew_min_intensity": 0.1,
    # A median needs at least this many partitions with a known intensity.
    "partition_skew_min_partitions": 3,
    # Intensity from which a read-mostly segment deserves FLASH_CACHE KEEP even
    # when cost does not put it on flash: 15 is the seed's flash / fast-disk
    # break-even, where its reads would pay for flash.
    "keep_min_intensity": 15.0,
    # Share of a segment's blocks in the flash cache, or of its reads served by
    # it, from which the flash cache already serves it.
    "resident_fraction": 0.5,
    # Intensity below which a segment is cold: 0.8 is the seed's fast-disk /
    # hi-cap disk break-even; blocks of such a segment in flash are waste.
    "cold_intensity": 0.8,
    # Flash cache held by a segment below which a NONE hint is not worth a
    # DDL (64 MiB).
    "flash_waste_min_bytes": 64 * 1024 * 1024,
}

#: Thresholds that are shares (0 < x <= 1).
_FRACTION_KEYS = frozenset(
    {"write_heavy_fraction", "direct_read_fraction", "partition_hot_fraction_of_max", "resident_fraction"}
)

#: Merged thresholds, as merge_thresholds returns them.
Limits = Mapping[str, float]


class RulesError(ValueError):
    """Bad figures or thresholds; the message names the field and the segment."""



def merge_thresholds(overrides: Mapping[str, float] | None = None) -> Mapping[str, float]:
    """DEFAULT_THRESHOLDS updated with ``overrides``; unknown keys and bad values raise.

    The defaults themselves come back as a shared read-only mapping: advise() runs once
    per segment (100k per refresh) and need not copy and re-validate them each time.
    """
    if overrides is None or overrides is DEFAULT_THRESHOLDS or overrides is _DEFAULTS_VIEW:
        return _DEFAULTS_VIEW
    merged = dict(DEFAULT_THRESHOLDS)
    for key, number in (overrides or {}).items():
        if key not in DEFAULT_THRESHOLDS:
            raise RulesError(f"unknown threshold {key!r}; known: {', '.join(sorted(DEFAULT_THRESHOLDS))}")
        if isinstance(number, bool) or not isinstance(number, (int, float)) or not math.isfinite(number):
            raise RulesError(f"threshold {key!r} must be a finite number, got {number!r}")
        if number < 0 or (key in _FRACTION_KEYS and not 0 < number <= 1):
            raise RulesError(f"threshold {key!r} is out of range: {number!r}")
        merged[key] = number
    return merged


_DEFAULTS_VIEW: Mapping[str, float] = MappingProxyType(dict(DEFAULT_THRESHOLDS))
