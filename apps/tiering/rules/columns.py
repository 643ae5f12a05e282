"""The batch the rules read: :class:`Columns`, n segments' figures as numpy arrays, one element per segment.

Built from a list of ``SegmentFigures`` (:meth:`Columns.from_figures`) or straight from arrays by a service
reading rollups in bulk; ``batch.decide`` takes the decisions over it. Split from ``batch`` by concern: the
input's shape, dtypes, defaults and checks here, the rules there.

Pure: standard library and numpy only.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from operator import attrgetter

import numpy as np

from apps.tiering.moves.movability import CODES as MOVABILITY_CODES
from apps.tiering.moves.movability import LOB_TYPES, TEMP_TYPES, UNDO_TYPES
from apps.tiering.rules.figures import (
    FLASH_CACHE_CODES,
    PARTITION_TYPES,
    RULE_COUNTS,
    PartitionSkew,
    SegmentFigures,
    _partition_skews,
)
from apps.tiering.rules.limits import DEFAULT_THRESHOLDS, RulesError, merge_thresholds

_FLOAT_COLUMNS = frozenset(
    {"size_bytes", *RULE_COUNTS, "iops", "intensity", "flash_blocks", "block_size_bytes", "iops_bound"}
)
#: Columns with a default for callers that do not pass them: (dtype, fill value).
_DEFAULTED: dict[str, tuple[type[object], object]] = {"unmeasured": (bool, False), "iops_bound": (np.float64, math.nan), "movability": (np.int8, 0),
              "not_worth_moving": (bool, False)}
_DEFAULTED["held_back"] = (bool, False)  # hysteresis: not held back unless said
_DEFAULTED["partition_lifecycle"] = (bool, False)  # apps.tiering.recommendations.lifecycle: in no lifecycle unless said
_DEFAULTED["placed_ahead"] = (bool, False)
_DEFAULTED["array_tiering"] = (bool, False)  # the storage map: on an array that tiers by itself unless said
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
    ``unmeasured``: some of the window's read or write requests were not measured
    (a top-N gap), so ``iops`` is a lower bound, and ``iops_bound`` its upper bound
    where the source gave one (NaN: none); ``movability`` indexes
    movability.CODES (0: a move of its own relocates it); ``not_worth_moving``: the
    move to the cost model's tier does not repay its one-off cost (apps.tiering.moves.payback).
    These four default to measured, no bound, movable and worth moving when not given.
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
    unmeasured: np.ndarray | None = None
    iops_bound: np.ndarray | None = None
    movability: np.ndarray | None = None
    held_back: np.ndarray | None = None  # hysteresis: a move back not made yet (apps.tiering.moves.hysteresis)
    not_worth_moving: np.ndarray | None = None
    partition_lifecycle: np.ndarray | None = None  # the lifecycle's hot partition or one placed ahead
    placed_ahead: np.ndarray | None = None  # an empty partition newer than the hot one: its move is place_ahead
    array_tiering: np.ndarray | None = None  # its tablespace is on an array pool that tiers by itself

    def __post_init__(self) -> None:
        codes = np.asarray(self.flash_cache)
        if codes.size and (codes.min() < 0 or codes.max() >= len(FLASH_CACHE_CODES)):
            raise RulesError(f"Columns.flash_cache must index FLASH_CACHE_CODES, got {codes.min()}..{codes.max()}")
        codes = np.asarray(self.movability if self.movability is not None else [])
        if codes.size and (codes.min() < 0 or codes.max() >= len(MOVABILITY_CODES)):
            raise RulesError(f"Columns.movability must index movability.CODES, got {codes.min()}..{codes.max()}")
        rows: int | None = None
        for field in fields(self):
            dtype: type[object] = np.float64 if field.name in _FLOAT_COLUMNS else np.int8 if field.name == "flash_cache" else bool
            if field.name in _DEFAULTED:
                dtype, fill = _DEFAULTED[field.name]
                if getattr(self, field.name) is None:
                    object.__setattr__(self, field.name, np.full(len(self.is_undo), fill, dtype=dtype))
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
            iops=unknown_as_nan("iops"),
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
            unmeasured=column("unmeasured", bool),
            iops_bound=unknown_as_nan("iops_bound"),
            movability=np.fromiter((MOVABILITY_CODES.index(f.movability) for f in figures), np.int8, rows),
            held_back=np.fromiter((f.held_back is not None for f in figures), bool, rows),
            not_worth_moving=column("not_worth_moving", bool),
            partition_lifecycle=column("partition_lifecycle", bool),
            placed_ahead=column("placed_ahead", bool),
            array_tiering=np.fromiter((bool(f.array_tiering) for f in figures), bool, rows),
        )
