"""The seed rules, applied to one segment's figures over a window.

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

Entry points: :func:`advise` and :func:`partition_skew`. Every threshold is in
:data:`DEFAULT_THRESHOLDS`; callers pass overrides as a mapping.

Pure: standard library only, no clock, no settings.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal
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

_BYTES_PER_GIB = 1024**3

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
class Reason:
    """One finding: a stable ``code`` for filters and a sentence for the DBA."""

    code: str
    text: str


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


@dataclass(frozen=True)
class _Finding:
    reason: Reason
    veto_flash: bool = False  # cost alone must not put this segment on flash
    hint: str | None = None  # flash cache hint this finding asks for


@dataclass(frozen=True)
class _Mix:
    """Ratios derived once from the figures; None when not measurable."""

    write_fraction: float | None
    blocks_per_read: float | None
    direct_fraction: float | None
    flash_fraction: float | None  # share of the segment's blocks in flash cache
    optimized_fraction: float | None  # share of read requests served by flash cache
    flash_bytes: int | None


# --------------------------------------------------------------------------- thresholds


def merge_thresholds(overrides: Mapping[str, float] | None = None) -> Mapping[str, float]:
    """DEFAULT_THRESHOLDS updated with ``overrides``; unknown keys and bad values raise.

    The defaults themselves come back as a shared read-only mapping: advise() runs once
    per segment (100k per refresh) and need not copy and re-validate them each time.
    """
    if overrides is None or overrides is DEFAULT_THRESHOLDS:
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


# --------------------------------------------------------------------------- advise


def advise(
    figures: SegmentFigures, *, thresholds: Mapping[str, float] = DEFAULT_THRESHOLDS
) -> Advice:
    """Apply the seed rules to ``figures`` and say what to do, and why.

    Actions: "move" (to ``Advice.recommended_tier``), "move_partitions" (a
    skewed partitioned table: move ``hot_partitions``), "flash_cache_keep",
    "flash_cache_none", "keep". The cost model's tier is overridden (kept on
    the current tier) when the size is unknown, or when the segment would go
    to flash although the seeds call it a poor flash candidate (undo, large
    scans).
    """
    limits = merge_thresholds(thresholds)
    mix = _mix(figures, limits)
    skew = partition_skew(figures.partition_intensities, thresholds=limits)
    findings = [
        finding
        for rule in _RULES
        if (finding := rule(figures, mix, limits)) is not None
    ]
    skew_finding = _partition_skew_rule(figures, skew)
    if skew_finding is not None:
        findings.append(skew_finding)
    hint = _hint(findings)
    tier = _decide_tier(figures, findings)
    whole_skewed = skew is not None and figures.kind not in PARTITION_TYPES
    if whole_skewed:
        tier = figures.current_tier  # move partitions, not the table
    action = _decide_action(figures, tier, hint, whole_skewed)
    verdict = _verdict(figures, tier)
    return Advice(
        action=action,
        recommended_tier=tier,
        cost_recommended_tier=figures.recommended_tier,
        reasons=(*verdict, *(finding.reason for finding in findings)),
        flash_cache_hint=hint,
        hot_partitions=skew.hot_partitions if skew is not None else (),
    )


def _decide_tier(figures: SegmentFigures, findings: list[_Finding]) -> str:
    if figures.size_bytes is None:
        return figures.current_tier
    onto_flash = figures.recommended_is_flash and not figures.current_is_flash
    if onto_flash and any(finding.veto_flash for finding in findings):
        return figures.current_tier
    return figures.recommended_tier


def _decide_action(figures: SegmentFigures, tier: str, hint: str | None, whole_skewed: bool) -> str:
    if whole_skewed:
        return ACTION_MOVE_PARTITIONS
    if tier != figures.current_tier:
        return ACTION_MOVE
    if hint == "KEEP":
        return ACTION_FLASH_CACHE_KEEP
    if hint == "NONE":
        return ACTION_FLASH_CACHE_NONE
    return ACTION_KEEP


def _hint(findings: list[_Finding]) -> str | None:
    hints = [finding.hint for finding in findings if finding.hint is not None]
    return hints[0] if hints else None


def _verdict(figures: SegmentFigures, tier: str) -> tuple[Reason, ...]:
    """The cost model's view: cheaper tier, or already on the cheapest."""
    if figures.size_bytes is None:
        return ()
    load = (
        f"{_rate(figures.iops)} IO requests/s at {figures.iops_statistic} over "
        f"{_size(figures.size_bytes)}, an intensity of {_intensity(figures.intensity)}"
    )
    if figures.recommended_tier == figures.current_tier:
        return (
            Reason(
                "keep_current",
                f"{figures.current_tier} is already the cheapest tier for it ({load}).",
            ),
        )
    costs = ""
    if figures.current_cost is not None and figures.recommended_cost is not None:
        costs = (
            f" It would cost {_money(figures.recommended_cost)} there instead of "
            f"{_money(figures.current_cost)} on {figures.current_tier}."
        )
    lead = "By cost alone, " if tier != figures.recommended_tier else ""
    return (
        Reason(
            "cheaper_tier",
            f"{lead}{figures.recommended_tier} is the cheapest tier for it ({load}).{costs}",
        ),
    )


# --------------------------------------------------------------------------- the rules


def _size_unknown_rule(figures: SegmentFigures, mix: _Mix, limits: Limits) -> _Finding | None:
    if figures.size_bytes is not None:
        return None
    return _Finding(
        Reason(
            "size_unknown",
            "Its size is unknown (it was not in DBA_SEGMENTS at the last collection), so "
            f"neither its intensity nor its cost can be worked out; it stays on {figures.current_tier}.",
        )
    )


def _below_capture_rule(figures: SegmentFigures, mix: _Mix, limits: Limits) -> _Finding | None:
    # AWR keeps only its top segments per snapshot (DBA_HIST_SEG_STAT): an
    # absent snapshot is "not captured", not zero IO.
    if not figures.below_awr_capture:
        return None
    return _Finding(
        Reason(
            "below_awr_capture",
            "AWR kept this segment's statistics for only some snapshots of the window (it "
            "captures the top segments only), so its IO figures are a lower bound; check "
            "V$SEGMENT_STATISTICS before acting on them.",
        )
    )


def _undo_rule(figures: SegmentFigures, mix: _Mix, limits: Limits) -> _Finding | None:
    # Oracle, "Not as Cost Effective on Flash": redo is sequential and its commit
    # latency is already absorbed by controller NVRAM; undo is "sequentially
    # written, randomly read by FlashBack. But reads are for recently written
    # data which is likely to still be in the buffer cache".
    if figures.kind not in UNDO_TYPES:
        return None
    return _Finding(
        Reason(
            "undo_redo",
            "Undo is written sequentially and read back mostly for recent changes that are "
            "still in the buffer cache; Oracle's own flash study lists undo, redo and large "
            f"table scans as poor value on flash.{_veto_suffix(figures)}",
        ),
        veto_flash=True,
    )


def _temp_rule(figures: SegmentFigures, mix: _Mix, limits: Limits) -> _Finding | None:
    # Oracle, "Flash Friendly DB Workloads": TEMP sort areas and intermediate
    # tables are sequential "BUT IO done in 1MB units: not enough to amortize
    # seeks"; an external sort ran 2.5x faster with TEMP on flash.
    if figures.kind not in TEMP_TYPES:
        return None
    return _Finding(
        Reason(
            "temp_ok",
            "TEMP (sorts, hash joins, intermediate results) does 1 MB reads and writes, too "
            "small to amortise disk seeks, so it can gain from flash: Oracle measured a sort "
            "2.5x faster with TEMP on flash. The flash cache does not serve TEMP; only a "
            "temporary tablespace on flash does.",
        )
    )


def _write_heavy_rule(figures: SegmentFigures, mix: _Mix, limits: Limits) -> _Finding | None:
    # Harrison: the flash cache speeds up reads only; "if it's very much easier
    # to put blocks into the buffer cache than to write them out ... the buffer
    # cache will fill up with dirty blocks and free buffer waits will result",
    # and in his tests a flash tablespace beat the flash cache for updates.
    if not _is_write_heavy(figures, mix, limits):
        return None
    assert mix.write_fraction is not None
    writes_per_s = figures.iops * mix.write_fraction
    if figures.current_is_flash:
        advice = "a flash tablespace is the right place for it, not FLASH_CACHE KEEP."
    elif figures.recommended_is_flash and figures.size_bytes is not None:
        advice = (
            f"move it to a flash tablespace on {figures.recommended_tier} "
            "rather than rely on FLASH_CACHE KEEP."
        )
    else:
        advice = "if it needs flash, give it a flash tablespace, not FLASH_CACHE KEEP."
    return _Finding(
        Reason(
            "write_heavy",
            f"{_pct(mix.write_fraction)} of its IO requests are writes (about "
            f"{_rate(writes_per_s)}/s at {figures.iops_statistic}); the flash cache only serves "
            "reads, and a buffer cache that fills with dirty blocks waiting for slow writes "
            f"gives free buffer waits, so {advice}",
        )
    )


def _full_scan_rule(figures: SegmentFigures, mix: _Mix, limits: Limits) -> _Finding | None:
    # Oracle: "Large Table Scans" are not cost effective on flash; sequential
    # bandwidth on flash was 5x one disk, an "improvement [that] can be matched
    # by using 5 disks".
    if not _is_scan_heavy(figures, mix, limits):
        return None
    measured = []
    if mix.blocks_per_read is not None and mix.blocks_per_read >= limits["scan_blocks_per_read"]:
        measured.append(f"{mix.blocks_per_read:.0f} blocks per read request on average")
    if mix.direct_fraction is not None and mix.direct_fraction >= limits["direct_read_fraction"]:
        measured.append(
            f"{_pct(mix.direct_fraction)} of blocks read by direct path, which bypasses the flash cache"
        )
    if figures.table_scans:
        measured.append(f"{figures.table_scans:,} scans in the window")
    return _Finding(
        Reason(
            "full_scan",
            f"Its reads are mostly large scans ({'; '.join(measured)}). Scans gain little from "
            "flash per dollar: Oracle measured 5x the bandwidth of one disk, which five disks "
            f"also give.{_veto_suffix(figures)}",
        ),
        veto_flash=True,
    )


def _already_resident_rule(figures: SegmentFigures, mix: _Mix, limits: Limits) -> _Finding | None:
    # Flash over disk: V$BH rows with STATUS 'flash%' show what the flash cache
    # already holds for a segment.
    if figures.current_is_flash or not _is_resident(mix, limits):
        return None
    return _Finding(
        Reason(
            "already_resident",
            f"The flash cache already serves it ({_residency(mix)}), so most of its reads are "
            "fast already; moving it to flash would mainly speed up its writes.",
        )
    )


def _flash_cache_keep_rule(figures: SegmentFigures, mix: _Mix, limits: Limits) -> _Finding | None:
    # Harrison: "If you can't afford top end flash drives for all your data, then
    # the 11GR2 database flash cache can give you a pretty substantial
    # performance boost" — for reads; KEEP asks it to hold this segment.
    if not _wants_keep(figures, mix, limits):
        return None
    assert mix.write_fraction is not None
    if figures.recommended_is_flash:
        why = f"a cheap alternative to moving it to {figures.recommended_tier}"
    else:
        why = "a cheap way to serve its reads from flash"
    residency = _residency(mix) or "little of it is there"
    return _Finding(
        Reason(
            "flash_cache_keep",
            f"It is read-mostly ({_pct(1 - mix.write_fraction)} of IO requests are reads) and hot "
            f"({_intensity(figures.intensity)}) but the flash cache holds little of it "
            f"({residency}): a FLASH_CACHE KEEP hint is {why}, using flash cache already paid for.",
        ),
        hint="KEEP",
    )


def _flash_cache_none_rule(figures: SegmentFigures, mix: _Mix, limits: Limits) -> _Finding | None:
    # The flash cache is shared: blocks of a segment it cannot help push out
    # blocks of segments it can.
    cause = _waste_cause(figures, mix, limits)
    if cause is None:
        return None
    assert mix.flash_bytes is not None
    return _Finding(
        Reason(
            "flash_cache_none",
            f"It holds {_size(mix.flash_bytes)} of the flash cache, but {cause}; a FLASH_CACHE "
            "NONE hint gives that space to segments the flash cache can help.",
        ),
        hint="NONE",
    )


def _partition_skew_rule(figures: SegmentFigures, skew: PartitionSkew | None) -> _Finding | None:
    # Oracle, "Introducing Intensity Skew": store partitions with different
    # intensities in different tablespaces.
    if skew is None:
        return None
    spread = (
        f"The {skew.partition_count} partitions of {figures.owner}.{figures.object_name} differ widely "
        f"in intensity (hottest {_intensity(skew.max_intensity)}, median "
        f"{_intensity(skew.median_intensity)})"
    )
    hot = _name_list(skew.hot_partitions)
    whole = "index" if figures.kind.startswith("INDEX") else "table"
    if figures.kind not in PARTITION_TYPES:
        text = f"{spread}: move the hot partitions ({hot}), not the whole {whole}."
    elif figures.subobject_name in skew.hot_partitions:
        text = (
            f"{spread}; this one is among the hot ones ({hot}): move the hot partitions, "
            f"not the whole {whole}."
        )
    else:
        text = (
            f"{spread}; this one is cold: only the hot partitions ({hot}) are worth moving "
            "to a faster tier."
        )
    return _Finding(Reason("partition_skew", text))


_RULES = (
    _size_unknown_rule,
    _below_capture_rule,
    _undo_rule,
    _temp_rule,
    _write_heavy_rule,
    _full_scan_rule,
    _already_resident_rule,
    _flash_cache_keep_rule,
    _flash_cache_none_rule,
)


# --------------------------------------------------------------------------- predicates


def _mix(figures: SegmentFigures, limits: Limits) -> _Mix:
    requests = figures.read_requests + figures.write_requests
    enough = requests >= limits["min_requests"]
    enough_reads = figures.read_requests >= limits["min_requests"]
    flash_bytes = (
        figures.flash_blocks * figures.block_size_bytes if figures.flash_blocks is not None else None
    )
    flash_fraction = None
    if flash_bytes is not None and figures.size_bytes:
        flash_fraction = min(1.0, flash_bytes / figures.size_bytes)
    return _Mix(
        write_fraction=figures.write_requests / requests if enough else None,
        blocks_per_read=figures.physical_reads_blocks / figures.read_requests if enough_reads else None,
        direct_fraction=(
            figures.physical_reads_direct_blocks / figures.physical_reads_blocks
            if enough_reads and figures.physical_reads_blocks
            else None
        ),
        flash_fraction=flash_fraction,
        optimized_fraction=(
            min(1.0, figures.optimized_physical_reads / figures.read_requests) if enough_reads else None
        ),
        flash_bytes=flash_bytes,
    )


def _is_write_heavy(figures: SegmentFigures, mix: _Mix, limits: Limits) -> bool:
    if figures.kind in UNDO_TYPES or figures.kind in TEMP_TYPES:
        return False  # their own rules say more
    return mix.write_fraction is not None and mix.write_fraction >= limits["write_heavy_fraction"]


def _is_scan_heavy(figures: SegmentFigures, mix: _Mix, limits: Limits) -> bool:
    if figures.kind in UNDO_TYPES or figures.kind in TEMP_TYPES:
        return False
    if mix.blocks_per_read is not None and mix.blocks_per_read >= limits["scan_blocks_per_read"]:
        return True
    # NOCACHE LOBs are read by direct path one chunk at a time: random reads the
    # seed calls flash friendly ("Access to out of line LOB"), not scans.
    if figures.kind in LOB_TYPES:
        return False
    return mix.direct_fraction is not None and mix.direct_fraction >= limits["direct_read_fraction"]


def _is_resident(mix: _Mix, limits: Limits) -> bool:
    share = limits["resident_fraction"]
    return (mix.flash_fraction is not None and mix.flash_fraction >= share) or (
        mix.optimized_fraction is not None and mix.optimized_fraction >= share
    )


def _is_hot(figures: SegmentFigures, limits: Limits) -> bool:
    if figures.recommended_is_flash:
        return True
    return figures.intensity is not None and figures.intensity >= limits["keep_min_intensity"]


def _wants_keep(figures: SegmentFigures, mix: _Mix, limits: Limits) -> bool:
    residency_known = mix.flash_fraction is not None or mix.optimized_fraction is not None
    return (
        figures.flash_cache_enabled
        and figures.flash_cache != "KEEP"
        and not figures.current_is_flash
        and figures.kind not in UNDO_TYPES
        and figures.kind not in TEMP_TYPES
        and mix.write_fraction is not None
        and not _is_write_heavy(figures, mix, limits)
        and not _is_scan_heavy(figures, mix, limits)
        and residency_known
        and not _is_resident(mix, limits)
        and _is_hot(figures, limits)
    )


def _waste_cause(figures: SegmentFigures, mix: _Mix, limits: Limits) -> str | None:
    """Why this segment's blocks in the flash cache are waste, or None."""
    if (
        figures.flash_cache == "NONE"
        or mix.flash_bytes is None
        or mix.flash_bytes < limits["flash_waste_min_bytes"]
    ):
        return None
    if figures.current_is_flash and figures.recommended_is_flash:
        return f"it is stored on flash ({figures.current_tier}) already"
    if figures.intensity is not None and figures.intensity < limits["cold_intensity"]:
        kept = " despite its FLASH_CACHE KEEP hint" if figures.flash_cache == "KEEP" else ""
        return f"it is cold ({_intensity(figures.intensity)}){kept}"
    if _is_write_heavy(figures, mix, limits):
        return "it is write-heavy and the flash cache only helps its reads"
    if _is_scan_heavy(figures, mix, limits):
        return "its reads are large scans that gain little from flash"
    return None


# --------------------------------------------------------------------------- wording


def _veto_suffix(figures: SegmentFigures) -> str:
    if figures.recommended_is_flash and not figures.current_is_flash:
        return (
            f" It stays on {figures.current_tier} rather than moving to "
            f"{figures.recommended_tier} for cost alone."
        )
    return ""


def _residency(mix: _Mix) -> str:
    parts = []
    if mix.flash_fraction is not None and mix.flash_bytes is not None:
        parts.append(f"{_pct(mix.flash_fraction)} of its blocks, {_size(mix.flash_bytes)}, are in it")
    if mix.optimized_fraction is not None:
        parts.append(f"it served {_pct(mix.optimized_fraction)} of its reads")
    return "; ".join(parts)


def _name_list(names: tuple[str, ...], limit: int = 5) -> str:
    shown = ", ".join(names[:limit])
    more = len(names) - limit
    return f"{shown} and {more} more" if more > 0 else shown


def _pct(share: float) -> str:
    return f"{share * 100:.0f}%"


def _rate(per_s: float) -> str:
    if per_s >= 100:
        return f"{per_s:,.0f}"
    if per_s >= 1:
        return f"{per_s:.1f}".removesuffix(".0")
    return f"{per_s:.2g}"


def _intensity(per_gb: float | None) -> str:
    if per_gb is None:
        return "unknown IO/s per GB"
    return f"{_rate(per_gb)} IO/s per GB"


def _size(size_bytes: int) -> str:
    if size_bytes >= _BYTES_PER_GIB:
        return f"{size_bytes / _BYTES_PER_GIB:,.1f} GB".replace(".0 GB", " GB")
    if size_bytes >= 1024**2:
        return f"{size_bytes / 1024**2:,.0f} MB"
    return f"{size_bytes / 1024:,.0f} KB"


def _money(amount: Decimal) -> str:
    return f"{amount:,.2f}"
