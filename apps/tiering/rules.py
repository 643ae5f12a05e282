"""The seed rules, applied to the figures of many segments at once over a window.

The cost model (``costmodel.py``) picks the cheapest tier from IOPS and GB
alone. These rules add what the seeds say money does not show, and explain
every recommendation in words a DBA reads in the UI, with the numbers:

* write-heavy segments: the flash cache only serves reads, and a buffer cache
  filling with dirty blocks gives free buffer waits -> a flash *tablespace*,
  never FLASH_CACHE KEEP, for them;
* large scans, undo and redo gain little from flash per dollar; TEMP can;
* partitions with very different intensities -> move the hot partitions;
* flash cache residency (V$BH 'flash%' blocks, optimized reads) -> a KEEP
  hint as a cheap alternative to a move, or NONE to stop wasting flash.

Seeds quoted below: "Oracle" = seeds/database-on-flash-oracle-development.txt,
"Harrison" = seeds/flash-tablespace-vs-db-flash-cache-2010.txt, "Flash over
disk" = seeds/flash-over-disk-2012.txt.

Two halves: :func:`decide` takes the decisions (which findings fire, the flash
veto, the hint, the action) with numpy over a :class:`Columns` batch, a refresh
of 100k segments in one go; ``rules_wording`` then words one segment's share of
them. :func:`advise_many` does both for a list of :class:`SegmentFigures`,
:func:`advise` for one. :func:`partition_skew` finds hot partitions. Every
threshold is in :data:`DEFAULT_THRESHOLDS`; callers pass overrides as a mapping.

Pure: standard library and numpy only, no clock, no settings.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, fields
from decimal import Decimal
from operator import attrgetter
from types import MappingProxyType
from typing import NamedTuple

import numpy as np

from apps.tiering.rules_wording import (
    FINDING_CODES,
    WASTE_CAUSES,
    Mix,
    Reason,
    RowDecision,
    reasons,
)

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

UNDO_TYPES: frozenset[str] = frozenset({"TYPE2 UNDO", "UNDO", "ROLLBACK", "DEFERRED ROLLBACK"})
TEMP_TYPES: frozenset[str] = frozenset({"TEMPORARY"})
LOB_TYPES: frozenset[str] = frozenset({"LOBSEGMENT", "LOB PARTITION", "LOB SUBPARTITION"})
PARTITION_TYPES: frozenset[str] = frozenset(
    {
        "TABLE PARTITION",
        "TABLE SUBPARTITION",
        "INDEX PARTITION",
        "INDEX SUBPARTITION",
        "LOB PARTITION",
        "LOB SUBPARTITION",
    }
)
FLASH_CACHE_HINTS: frozenset[str] = frozenset({"DEFAULT", "KEEP", "NONE"})

ACTION_MOVE = "move"
ACTION_KEEP = "keep"
ACTION_MOVE_PARTITIONS = "move_partitions"
ACTION_FLASH_CACHE_KEEP = "flash_cache_keep"
ACTION_FLASH_CACHE_NONE = "flash_cache_none"

#: Codes in the batch arrays: Columns.flash_cache, Decisions.action and Decisions.hint
#: index these. "" = no FLASH_CACHE hint known (SegmentFigures.flash_cache None).
FLASH_CACHE_CODES: tuple[str, ...] = ("", "DEFAULT", "KEEP", "NONE")
ACTIONS: tuple[str, ...] = (
    ACTION_KEEP,
    ACTION_MOVE,
    ACTION_MOVE_PARTITIONS,
    ACTION_FLASH_CACHE_KEEP,
    ACTION_FLASH_CACHE_NONE,
)
HINTS: tuple[str | None, ...] = (None, "KEEP", "NONE")
_ACTION_KEEP, _ACTION_MOVE = ACTIONS.index(ACTION_KEEP), ACTIONS.index(ACTION_MOVE)
_ACTION_MOVE_PARTITIONS = ACTIONS.index(ACTION_MOVE_PARTITIONS)
_ACTION_FLASH_CACHE_KEEP = ACTIONS.index(ACTION_FLASH_CACHE_KEEP)
_ACTION_FLASH_CACHE_NONE = ACTIONS.index(ACTION_FLASH_CACHE_NONE)
_HINT_KEEP, _HINT_NONE = HINTS.index("KEEP"), HINTS.index("NONE")
_FLASH_CACHE_KEEP, _FLASH_CACHE_NONE = FLASH_CACHE_CODES.index("KEEP"), FLASH_CACHE_CODES.index("NONE")

#: Merged thresholds, as merge_thresholds returns them.
Limits = Mapping[str, float]


class RulesError(ValueError):
    """Bad figures or thresholds; the message names the field and the segment."""


@dataclass(frozen=True)
class SegmentFigures:
    """One segment over a window, as the service fills it from stored rollups.

    Counters are totals over the window (sums of interval deltas):
    ``read_requests``/``write_requests`` are IO requests; ``physical_reads_blocks``
    and ``physical_reads_direct_blocks`` are blocks; ``optimized_physical_reads``
    are reads served by the flash cache (V$SEGSTAT 'optimized physical reads');
    ``table_scans`` counts scans; ``db_block_changes`` blocks changed.

    ``iops`` is the placement figure (IO requests per second at
    ``iops_statistic``: "p95", "avg" or "max"); ``intensity`` = iops per GB, None
    when ``size_bytes`` is unknown. ``flash_blocks``/``cache_blocks`` are V$BH
    buffers with STATUS LIKE 'flash%' / other non-free statuses (None when not
    collected); ``flash_cache`` is the segment's FLASH_CACHE hint;
    ``flash_cache_enabled`` says the instance has a Smart Flash Cache
    (DB_FLASH_CACHE_SIZE > 0). Tiers: names and whether they are flash, for the
    segment's tier now and the cost model's cheapest one; costs optional, in
    the tier price currency. ``partition_intensities`` lists
    (partition name, intensity or None) of every partition of the parent table
    or index, this one included; for a whole partitioned table it lists its
    partitions.
    """

    owner: str
    object_name: str
    subobject_name: str
    object_type: str
    tablespace_name: str
    size_bytes: int | None
    read_requests: int
    write_requests: int
    physical_reads_blocks: int
    physical_reads_direct_blocks: int
    optimized_physical_reads: int
    table_scans: int
    db_block_changes: int
    iops: float
    intensity: float | None
    current_tier: str
    recommended_tier: str
    current_is_flash: bool
    recommended_is_flash: bool
    iops_statistic: str = "p95"
    flash_blocks: int | None = None
    cache_blocks: int | None = None
    block_size_bytes: int = 8192
    flash_cache: str | None = None
    flash_cache_enabled: bool = False
    below_awr_capture: bool = False
    partition_intensities: tuple[tuple[str, float | None], ...] = ()
    current_cost: Decimal | None = None
    recommended_cost: Decimal | None = None

    def __post_init__(self) -> None:
        for name in (
            "read_requests",
            "write_requests",
            "physical_reads_blocks",
            "physical_reads_direct_blocks",
            "optimized_physical_reads",
            "table_scans",
            "db_block_changes",
        ):
            self._check_count(name, getattr(self, name))
        for name in ("size_bytes", "flash_blocks", "cache_blocks"):
            if getattr(self, name) is not None:
                self._check_count(name, getattr(self, name))
        self._check_rate("iops", self.iops)
        if self.intensity is not None:
            self._check_rate("intensity", self.intensity)
        if self.block_size_bytes <= 0:
            self._fail("block_size_bytes", self.block_size_bytes, "must be positive")
        if self.flash_cache is not None and self.flash_cache not in FLASH_CACHE_HINTS:
            self._fail("flash_cache", self.flash_cache, "must be DEFAULT, KEEP, NONE or None")
        for name, intensity in self.partition_intensities:
            if intensity is not None:
                self._check_rate(f"partition_intensities[{name!r}]", intensity)

    @property
    def label(self) -> str:
        """OWNER.NAME[:SUBOBJECT] for messages."""
        sub = f":{self.subobject_name}" if self.subobject_name else ""
        return f"{self.owner}.{self.object_name}{sub}"

    @property
    def kind(self) -> str:
        """object_type upper-cased with single spaces."""
        return " ".join(self.object_type.upper().split())

    def _check_count(self, name: str, number: object) -> None:
        if isinstance(number, bool) or not isinstance(number, int) or number < 0:
            self._fail(name, number, "must be a non-negative integer")

    def _check_rate(self, name: str, number: object) -> None:
        if (
            isinstance(number, bool)
            or not isinstance(number, (int, float))
            or not math.isfinite(number)
            or number < 0
        ):
            self._fail(name, number, "must be a finite number >= 0")

    def _fail(self, name: str, number: object, rule: str) -> None:
        raise RulesError(f"SegmentFigures.{name} {rule}, got {number!r} ({self.label})")



@dataclass(frozen=True)
class Advice:
    """What to do with a segment, and why.

    ``recommended_tier`` is the tier after the rules; ``cost_recommended_tier``
    the cost model's cheapest. ``flash_cache_hint`` ("KEEP"/"NONE") is a hint
    worth setting even when the action is a move; ``hot_partitions`` names the
    partitions to move when partitions are skewed.
    """

    action: str
    recommended_tier: str
    cost_recommended_tier: str
    reasons: tuple[Reason, ...]
    flash_cache_hint: str | None = None
    hot_partitions: tuple[str, ...] = ()

    @property
    def tier_adjusted(self) -> bool:
        return self.recommended_tier != self.cost_recommended_tier

    @property
    def codes(self) -> tuple[str, ...]:
        return tuple(reason.code for reason in self.reasons)

    def text(self) -> str:
        """All reasons as one paragraph."""
        return " ".join(reason.text for reason in self.reasons)


@dataclass(frozen=True)
class PartitionSkew:
    """Partitions whose intensities differ widely; ``hot_partitions`` hottest first."""

    hot_partitions: tuple[str, ...]
    max_intensity: float
    median_intensity: float
    partition_count: int

    @property
    def ratio(self) -> float:
        """Hottest / median intensity (inf when the median is 0)."""
        if self.median_intensity == 0:
            return math.inf
        return self.max_intensity / self.median_intensity



# --------------------------------------------------------------------------- thresholds


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


# --------------------------------------------------------------------------- partition skew


def partition_skew(
    intensities: Mapping[str, float | None] | Iterable[tuple[str, float | None]],
    *,
    thresholds: Mapping[str, float] = DEFAULT_THRESHOLDS,
) -> PartitionSkew | None:
    """Which partitions of one table or index are hot, if their intensities differ widely.

    Oracle: "Partition tables to separate high intensity data from low
    intensity data. If recent data is hot, then partition by date" — then
    store partitions of different intensity in different tablespaces.
    Partitions with an unknown intensity (None) are left out. Returns None
    when there are too few partitions, all are cold, or hottest / median is
    below ``partition_skew_ratio``.

    >>> partition_skew({"P1": 0.2, "P2": 0.3, "P3": 0.25, "P4": 40.0}).hot_partitions
    ('P4',)
    """
    limits = merge_thresholds(thresholds)
    pairs = intensities.items() if isinstance(intensities, Mapping) else intensities
    known = [(name, float(value)) for name, value in pairs if value is not None]
    if len(known) < limits["partition_skew_min_partitions"]:
        return None
    values = [value for _, value in known]
    hottest = max(values)
    if hottest < limits["partition_skew_min_intensity"]:
        return None
    median = statistics.median(values)
    if median > 0 and hottest / median < limits["partition_skew_ratio"]:
        return None
    cut = hottest * limits["partition_hot_fraction_of_max"]
    hot = sorted((item for item in known if item[1] >= cut), key=lambda item: (-item[1], item[0]))
    return PartitionSkew(
        hot_partitions=tuple(name for name, _ in hot),
        max_intensity=hottest,
        median_intensity=median,
        partition_count=len(known),
    )



# --------------------------------------------------------------------------- the batch


_FLOAT_COLUMNS = frozenset(
    {
        "size_bytes",
        "read_requests",
        "write_requests",
        "physical_reads_blocks",
        "physical_reads_direct_blocks",
        "optimized_physical_reads",
        "table_scans",
        "iops",
        "intensity",
        "flash_blocks",
        "block_size_bytes",
    }
)
_FINDING_BITS = np.array([1 << bit for bit in range(len(FINDING_CODES))], dtype=np.uint16)
_FLASH_CACHE_CODE: dict[str | None, int] = {code or None: index for index, code in enumerate(FLASH_CACHE_CODES)}


@dataclass(frozen=True)
class Columns:
    """n segments' figures as numpy arrays, one element per segment: the batch twin of SegmentFigures.

    Build it with :meth:`from_figures`, or straight from arrays (a service reading
    rollups in bulk). Booleans stand in for ``SegmentFigures.kind``; NaN stands for
    None in ``size_bytes``, ``intensity`` and ``flash_blocks``; ``flash_cache`` is an
    index into FLASH_CACHE_CODES; ``cost_moves`` says the cost model's tier is not
    the current one; ``skewed`` says partition_skew() found skew in the segment's
    partition group (for a whole partitioned table or index: its partitions).
    Arrays are converted to their dtype on construction (bool, float64, int8);
    the figures in them are trusted, as SegmentFigures has validated them.
    """

    is_undo: np.ndarray
    is_temp: np.ndarray
    is_lob: np.ndarray
    is_partition: np.ndarray
    size_bytes: np.ndarray
    read_requests: np.ndarray
    write_requests: np.ndarray
    physical_reads_blocks: np.ndarray
    physical_reads_direct_blocks: np.ndarray
    optimized_physical_reads: np.ndarray
    table_scans: np.ndarray
    iops: np.ndarray
    intensity: np.ndarray
    current_is_flash: np.ndarray
    recommended_is_flash: np.ndarray
    cost_moves: np.ndarray
    flash_blocks: np.ndarray
    block_size_bytes: np.ndarray
    flash_cache: np.ndarray
    flash_cache_enabled: np.ndarray
    below_awr_capture: np.ndarray
    skewed: np.ndarray

    def __post_init__(self) -> None:
        codes = np.asarray(self.flash_cache)
        if codes.size and (codes.min() < 0 or codes.max() >= len(FLASH_CACHE_CODES)):
            raise RulesError(f"Columns.flash_cache must index FLASH_CACHE_CODES, got {codes.min()}..{codes.max()}")
        rows: int | None = None
        for field in fields(self):
            dtype = np.float64 if field.name in _FLOAT_COLUMNS else np.int8 if field.name == "flash_cache" else bool
            column = np.asarray(getattr(self, field.name), dtype=dtype)
            if column.ndim != 1:
                raise RulesError(f"Columns.{field.name} must be one-dimensional, got shape {column.shape}")
            if rows is None:
                rows = len(column)
            elif len(column) != rows:
                raise RulesError(f"Columns.{field.name} has {len(column)} rows, Columns.is_undo has {rows}")
            object.__setattr__(self, field.name, column)

    def __len__(self) -> int:
        return len(self.is_undo)

    @classmethod
    def from_figures(
        cls,
        figures: Sequence[SegmentFigures],
        skews: Sequence[PartitionSkew | None] | None = None,
        *,
        thresholds: Mapping[str, float] = DEFAULT_THRESHOLDS,
    ) -> Columns:
        """Columns of ``figures``; ``skews`` default to partition_skew() of each one's partitions."""
        if skews is None:
            skews = _partition_skews(figures, merge_thresholds(thresholds))
        elif len(skews) != len(figures):
            raise RulesError(f"{len(skews)} partition skews for {len(figures)} segments")
        rows = len(figures)
        kinds = [f.kind for f in figures]

        def kind_in(types: frozenset[str]) -> np.ndarray:
            return np.fromiter((kind in types for kind in kinds), bool, rows)

        def column(name: str, dtype: type = np.float64) -> np.ndarray:
            return np.fromiter(map(attrgetter(name), figures), dtype, rows)

        def unknown_as_nan(name: str) -> np.ndarray:
            values = map(attrgetter(name), figures)
            return np.fromiter((math.nan if value is None else value for value in values), np.float64, rows)

        return cls(
            is_undo=kind_in(UNDO_TYPES),
            is_temp=kind_in(TEMP_TYPES),
            is_lob=kind_in(LOB_TYPES),
            is_partition=kind_in(PARTITION_TYPES),
            size_bytes=unknown_as_nan("size_bytes"),
            read_requests=column("read_requests"),
            write_requests=column("write_requests"),
            physical_reads_blocks=column("physical_reads_blocks"),
            physical_reads_direct_blocks=column("physical_reads_direct_blocks"),
            optimized_physical_reads=column("optimized_physical_reads"),
            table_scans=column("table_scans"),
            iops=column("iops"),
            intensity=unknown_as_nan("intensity"),
            current_is_flash=column("current_is_flash", bool),
            recommended_is_flash=column("recommended_is_flash", bool),
            cost_moves=np.fromiter((f.recommended_tier != f.current_tier for f in figures), bool, rows),
            flash_blocks=unknown_as_nan("flash_blocks"),
            block_size_bytes=column("block_size_bytes"),
            flash_cache=np.fromiter((_FLASH_CACHE_CODE[f.flash_cache] for f in figures), np.int8, rows),
            flash_cache_enabled=column("flash_cache_enabled", bool),
            below_awr_capture=column("below_awr_capture", bool),
            skewed=np.fromiter((skew is not None for skew in skews), bool, rows),
        )


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
    Actions: "move" (to the cost model's tier), "move_partitions" (a skewed
    partitioned table or index: move its hot partitions), "flash_cache_keep",
    "flash_cache_none", "keep". The cost model's tier is overridden (kept on the
    current tier) when the size is unknown, or when the segment would go to flash
    although the seeds call it a poor flash candidate (undo, large scans).
    """
    limits = merge_thresholds(thresholds)
    mix = _mix(columns, limits)
    signs = _signs(columns, mix, limits)
    wants_keep = _wants_keep(columns, mix, signs, limits)
    waste_cause = _waste_cause(columns, mix, signs, limits)
    fired = {
        "size_unknown": np.isnan(columns.size_bytes),
        "below_awr_capture": columns.below_awr_capture,
        "undo_redo": columns.is_undo,
        "temp_ok": columns.is_temp,
        "write_heavy": signs.write_heavy,
        "full_scan": signs.scan_heavy,
        "already_resident": ~columns.current_is_flash & signs.resident,
        "flash_cache_keep": wants_keep,
        "flash_cache_none": waste_cause != 0,
        "partition_skew": columns.skewed,
    }
    # Distinct bits: their sum is their OR.
    findings = (np.stack([fired[code] for code in FINDING_CODES], axis=-1) * _FINDING_BITS).sum(
        axis=-1, dtype=np.uint16
    )
    # The first hint in rule order wins: KEEP (keep rule) before NONE (waste rule).
    hint = _first([(wants_keep, _HINT_KEEP), (fired["flash_cache_none"], _HINT_NONE)], 0, len(columns))
    action, keep_current_tier = _decide_action(columns, signs, hint)
    return Decisions(
        action=action,
        keep_current_tier=keep_current_tier,
        hint=hint,
        findings=findings,
        **mix._asdict(),
        scan_by_blocks=signs.scan_by_blocks,
        scan_by_direct=signs.scan_by_direct,
        waste_cause=waste_cause,
    )


def _decide_action(columns: Columns, signs: _Signs, hint: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(action code, whether the segment stays on its tier although cost would move it)."""
    onto_flash = columns.recommended_is_flash & ~columns.current_is_flash
    # The undo_redo and full_scan findings veto flash: cost alone must not put these on it.
    vetoed = onto_flash & (columns.is_undo | signs.scan_heavy)
    whole_skewed = columns.skewed & ~columns.is_partition  # move partitions, not the table
    keep_current_tier = columns.cost_moves & (np.isnan(columns.size_bytes) | vetoed | whole_skewed)
    action = _first(
        [
            (whole_skewed, _ACTION_MOVE_PARTITIONS),
            (columns.cost_moves & ~keep_current_tier, _ACTION_MOVE),
            (hint == _HINT_KEEP, _ACTION_FLASH_CACHE_KEEP),
            (hint == _HINT_NONE, _ACTION_FLASH_CACHE_NONE),
        ],
        _ACTION_KEEP,
        len(columns),
    )
    return action, keep_current_tier


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
    return (
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


def _waste_cause(columns: Columns, mix: _MixColumns, signs: _Signs, limits: Limits) -> np.ndarray:
    """Why a segment's blocks in the flash cache are waste: index into WASTE_CAUSES, 0 = they are not."""
    # The flash cache is shared: blocks of a segment it cannot help push out
    # blocks of segments it can.
    holds_waste = (columns.flash_cache != _FLASH_CACHE_NONE) & (mix.flash_bytes >= limits["flash_waste_min_bytes"])
    cause = _first(
        [
            (columns.current_is_flash & columns.recommended_is_flash, WASTE_CAUSES.index("on_flash")),
            (columns.intensity < limits["cold_intensity"], WASTE_CAUSES.index("cold")),
            (signs.write_heavy, WASTE_CAUSES.index("write_heavy")),
            (signs.scan_heavy, WASTE_CAUSES.index("scan_heavy")),
        ],
        0,
        len(columns),
    )
    cause[~holds_waste] = 0
    return cause


# --------------------------------------------------------------------------- advise


def advise_many(
    figures: Sequence[SegmentFigures], *, thresholds: Mapping[str, float] = DEFAULT_THRESHOLDS
) -> list[Advice]:
    """:func:`advise` for many segments: one :func:`decide` for all of them, then words per segment."""
    limits = merge_thresholds(thresholds)
    skews = _partition_skews(figures, limits)
    columns = Columns.from_figures(figures, skews)
    decisions = decide(columns, thresholds=limits)
    return _word(figures, skews, columns, decisions)


def advise(figures: SegmentFigures, *, thresholds: Mapping[str, float] = DEFAULT_THRESHOLDS) -> Advice:
    """Apply the seed rules to ``figures`` and say what to do, and why.

    :func:`decide` on a one-row batch, put in words; see there for the actions.
    A one-row batch pays numpy's per-call overhead (a few hundred microseconds):
    for many segments call :func:`advise_many` once.
    """
    return advise_many([figures], thresholds=thresholds)[0]


def finding_codes(mask: int) -> tuple[str, ...]:
    """The codes of a findings bitmask (Decisions.findings), in FINDING_CODES order.

    >>> finding_codes(0b10001)
    ('size_unknown', 'write_heavy')
    """
    mask = int(mask)
    if not 0 <= mask < len(_CODES_BY_MASK):
        raise RulesError(f"findings mask out of range: {mask}")
    return _CODES_BY_MASK[mask]


_CODES_BY_MASK: tuple[tuple[str, ...], ...] = tuple(
    tuple(code for bit, code in enumerate(FINDING_CODES) if mask >> bit & 1)
    for mask in range(1 << len(FINDING_CODES))
)


def _partition_skews(figures: Sequence[SegmentFigures], limits: Limits) -> list[PartitionSkew | None]:
    # Most segments have no partitions; skip the call for them unless a
    # threshold of 0 partitions makes an empty list worth asking about.
    skip_empty = limits["partition_skew_min_partitions"] > 0
    return [
        None
        if skip_empty and not f.partition_intensities
        else partition_skew(f.partition_intensities, thresholds=limits)
        for f in figures
    ]


def _word(
    figures: Sequence[SegmentFigures], skews: Sequence[PartitionSkew | None], columns: Columns, decisions: Decisions
) -> list[Advice]:
    """One Advice per segment from its row of ``decisions``; the arrays become Python lists once."""
    rows = map(
        RowDecision._make,
        zip(
            decisions.findings.tolist(),
            columns.cost_moves.tolist(),
            decisions.keep_current_tier.tolist(),
            (decisions.action == _ACTION_MOVE_PARTITIONS).tolist(),
            decisions.scan_by_blocks.tolist(),
            decisions.scan_by_direct.tolist(),
            _names(WASTE_CAUSES, decisions.waste_cause),
            _mixes(decisions),
        ),
    )
    return [
        Advice(
            action=action,
            recommended_tier=f.current_tier if row.keep_current_tier else f.recommended_tier,
            cost_recommended_tier=f.recommended_tier,
            reasons=reasons(f, skew, row),
            flash_cache_hint=hint,
            hot_partitions=skew.hot_partitions if skew is not None else (),
        )
        for f, skew, row, action, hint in zip(
            figures, skews, rows, _names(ACTIONS, decisions.action), _names(HINTS, decisions.hint)
        )
    ]


def _names(names: tuple[str | None, ...], codes: np.ndarray) -> list[str | None]:
    return np.array(names, dtype=object)[codes].tolist()


def _mixes(decisions: Decisions) -> Iterator[Mix]:
    """Each row's Mix, NaN back to None and flash bytes back to int."""
    ratios = []
    for name in Mix._fields[:-1]:
        column = getattr(decisions, name)
        ratio = column.astype(object)
        ratio[np.isnan(column)] = None
        ratios.append(ratio.tolist())
    known = ~np.isnan(decisions.flash_bytes)
    flash_bytes = np.full(len(decisions), None, dtype=object)
    flash_bytes[known] = decisions.flash_bytes[known].astype(np.int64)
    return map(Mix._make, zip(*ratios, flash_bytes.tolist()))
