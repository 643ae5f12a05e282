"""What the rules read and say: segment kinds, actions, one segment's figures, its advice, partition skew.

Pure: standard library only.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal

from apps.tiering.ddl.base import FLASH_CACHE_HINTS
from apps.tiering.moves.hysteresis import HeldBack
from apps.tiering.moves.movability import movability
from apps.tiering.rules.findings import Reason
from apps.tiering.rules.limits import DEFAULT_THRESHOLDS, Limits, RulesError, merge_thresholds

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

ACTION_MOVE = "move"
ACTION_KEEP = "keep"
ACTION_MOVE_PARTITIONS = "move_partitions"
ACTION_FLASH_CACHE_KEEP = "flash_cache_keep"
ACTION_FLASH_CACHE_NONE = "flash_cache_none"
#: Oracle will not move the segment (or not by itself), or it cannot be acted on as read: see movability.
ACTION_NOT_MOVABLE = "not_movable"
#: The cost model's tier saves too little a month, or too late, to repay the move's one-off cost (payback).
ACTION_NOT_WORTH_MOVING = "not_worth_moving"
#: An empty partition newer than its table's hot one, moved now to where the hot one goes (apps.tiering.recommendations.lifecycle):
#: a move made ahead of its IO, planned like one but saving nothing yet, so never counted among the moves that pay.
ACTION_PLACE_AHEAD = "place_ahead"

#: Codes in the batch arrays: Columns.flash_cache, Decisions.action and Decisions.hint
#: index these. "" = no FLASH_CACHE hint known (SegmentFigures.flash_cache None).
FLASH_CACHE_CODES: tuple[str, ...] = ("", "DEFAULT", "KEEP", "NONE")
ACTIONS: tuple[str, ...] = (
    ACTION_KEEP,
    ACTION_MOVE,
    ACTION_MOVE_PARTITIONS,
    ACTION_FLASH_CACHE_KEEP,
    ACTION_FLASH_CACHE_NONE,
    ACTION_NOT_MOVABLE,
    ACTION_NOT_WORTH_MOVING,
    ACTION_PLACE_AHEAD,  # appended: the stored codes of the others never change
)
#: The actions that relocate segments: what a plan moves and a tablespace must have room for.
MOVING_ACTIONS: frozenset[str] = frozenset({ACTION_MOVE, ACTION_PLACE_AHEAD, ACTION_MOVE_PARTITIONS})
HINTS: tuple[str | None, ...] = (None, "KEEP", "NONE")
_ACTION_KEEP, _ACTION_MOVE = ACTIONS.index(ACTION_KEEP), ACTIONS.index(ACTION_MOVE)
_ACTION_MOVE_PARTITIONS = ACTIONS.index(ACTION_MOVE_PARTITIONS)
_ACTION_FLASH_CACHE_KEEP = ACTIONS.index(ACTION_FLASH_CACHE_KEEP)
_ACTION_FLASH_CACHE_NONE = ACTIONS.index(ACTION_FLASH_CACHE_NONE)
_ACTION_NOT_MOVABLE = ACTIONS.index(ACTION_NOT_MOVABLE)
_ACTION_NOT_WORTH_MOVING = ACTIONS.index(ACTION_NOT_WORTH_MOVING)
_ACTION_PLACE_AHEAD = ACTIONS.index(ACTION_PLACE_AHEAD)
_HINT_KEEP, _HINT_NONE = HINTS.index("KEEP"), HINTS.index("NONE")
_FLASH_CACHE_KEEP, _FLASH_CACHE_NONE = FLASH_CACHE_CODES.index("KEEP"), FLASH_CACHE_CODES.index("NONE")


@dataclass(frozen=True)
class MoveFigures:
    """The one-off cost of a segment's move to the cost model's tier and the terms it is judged by
    (apps.tiering.moves.payback): per-month money in USD, None where unknown."""

    saving_per_month: Decimal | None
    cost: Decimal | None
    payback_days: float | None
    seconds: float | None
    redo_bytes: int | None
    horizon_months: Decimal
    min_saving_per_month: Decimal
    #: Tiers whose throughput is unknown (why ``seconds`` is None).
    unknown_throughput: tuple[str, ...] = ()


#: The window's counts of a segment the rules read (SegmentFigures' and rules.Columns' fields of these names).
RULE_COUNTS = ("read_requests", "write_requests", "physical_reads_blocks", "physical_reads_direct_blocks",
               "optimized_physical_reads", "table_scans")


@dataclass(frozen=True)
class SegmentFigures:
    """One segment over a window, as the service fills it from stored rollups.

    Counters are totals over the window (sums of interval deltas):
    ``read_requests``/``write_requests`` are IO requests; ``physical_reads_blocks``
    and ``physical_reads_direct_blocks`` are blocks; ``optimized_physical_reads``
    are reads served by the flash cache (V$SEGSTAT 'optimized physical reads');
    ``table_scans`` counts scans; ``db_block_changes`` blocks changed.

    ``iops`` is the placement figure (IO requests per second at
    ``iops_statistic``: "p95", "avg" or "max"), None when not measured;
    ``intensity`` = iops per GB, None when ``size_bytes`` or ``iops`` is unknown.
    ``unmeasured``: some of the window's read or write requests were not
    measured (a top-N gap); ``reads_unmeasured``/``writes_unmeasured`` say which
    when known (None: not known), ``iops_bound`` bounds the IOPS when the source
    gave a bound. ``name_truncated``: a text report cut the name short.
    ``not_worth_moving``: the move to the cost model's tier does not repay its
    one-off cost (apps.tiering.moves.payback); ``move`` holds its figures when known. ``flash_blocks``/``cache_blocks`` are V$BH
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
    iops: float | None
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
    # The costs' unit ("USD purchase", "USD/month"; None: not said) and what divides them to a month.
    cost_unit: str | None = None
    cost_months: int = 1
    unmeasured: bool = False
    reads_unmeasured: bool | None = None
    writes_unmeasured: bool | None = None
    iops_bound: float | None = None
    name_truncated: bool = False
    held_back: HeldBack | None = None  # hysteresis: a move back held, and why (apps.tiering.moves.hysteresis)
    not_worth_moving: bool = False
    move: MoveFigures | None = None
    # Partition lifecycle (apps.tiering.recommendations.lifecycle): the hot partition of a table filled one partition at a
    # time, or an empty partition newer than it, placed on the hot one's tier (its cost model's tier here).
    partition_lifecycle: bool = False
    # One of those: an empty partition newer than the hot one; a move of it is ACTION_PLACE_AHEAD.
    placed_ahead: bool = False
    # Its tablespace's locations on an array pool that tiers by itself (the storage map): a move fights it.
    array_tiering: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if _plainly_valid(self):
            return
        for name in (*RULE_COUNTS, "db_block_changes"):
            self._check_count(name, getattr(self, name))
        for name in ("size_bytes", "flash_blocks", "cache_blocks"):
            if getattr(self, name) is not None:
                self._check_count(name, getattr(self, name))
        for name in ("iops", "intensity", "iops_bound"):
            if getattr(self, name) is not None:
                self._check_rate(name, getattr(self, name))
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

    @property
    def movability(self) -> str:
        """movability.CODES code: "" when a move of its own can relocate it."""
        return movability(self.owner, self.object_name, self.object_type, name_truncated=self.name_truncated)

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


_INF = math.inf


def _count(number: object) -> bool:
    return type(number) is int and number >= 0


def _rate(number: object) -> bool:
    return (type(number) is float or type(number) is int) and 0 <= number < _INF


def _plainly_valid(f: SegmentFigures) -> bool:
    """True when every check of SegmentFigures.__post_init__ passes on plain ints and floats (the usual case, one
    expression: the checks one getattr at a time were a tenth of an export's time); False sends it to the checks
    themselves, which pass or name what is wrong."""
    return (_count(f.read_requests) and _count(f.write_requests) and _count(f.physical_reads_blocks)
            and _count(f.physical_reads_direct_blocks) and _count(f.optimized_physical_reads)
            and _count(f.table_scans) and _count(f.db_block_changes)
            and (f.size_bytes is None or _count(f.size_bytes)) and (f.flash_blocks is None or _count(f.flash_blocks))
            and (f.cache_blocks is None or _count(f.cache_blocks)) and (f.iops is None or _rate(f.iops))
            and (f.intensity is None or _rate(f.intensity)) and (f.iops_bound is None or _rate(f.iops_bound))
            and type(f.block_size_bytes) is int and f.block_size_bytes > 0
            and (f.flash_cache is None or f.flash_cache in FLASH_CACHE_HINTS)
            and all(intensity is None or _rate(intensity) for _, intensity in f.partition_intensities))



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

