"""The records a refresh's decision (apps.tiering.recommendations.decision) reads and returns: frozen dataclasses of numpy
column arrays, one element per segment, all in the same order (segment id, ascending).

* :class:`SegmentArrays`: every segment of a target as apps.tiering.recommendations.services.segment_arrays reads it;
* :class:`WindowColumns`: the window's figures aligned to those segments (apps.tiering.recommendations.decision), LOBs
  counted with their indexes (apps.tiering.recommendations.lobfold);
* :class:`Recommendations`: every segment's recommendation, one field per column of
  tiering_recommendation (by the model's attribute names), and the run's figures (:class:`RunFigures`),
  which apps.tiering.recommendations.services.recommendation_store writes.

Each array field is annotated with its dtype (``npt.NDArray[np.int64]``...): apps.core.columns reads the
PostgreSQL types of a bulk read from it. Pure: standard library and numpy.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import functools
import typing
from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple, TypeVar

import numpy as np
import numpy.typing as npt

Int64s = npt.NDArray[np.int64]
Int32s = npt.NDArray[np.int32]
Int16s = npt.NDArray[np.int16]
Floats = npt.NDArray[np.float64]
Bools = npt.NDArray[np.bool_]

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

_Record = TypeVar("_Record", bound="DataclassInstance")


def _take(record: _Record, order: np.ndarray) -> _Record:
    """``record`` with every array field re-ordered (or filtered) by ``order``."""
    return dataclasses.replace(record, **{field.name: getattr(record, field.name)[order]
                                          for field in dataclasses.fields(record)})


@dataclasses.dataclass(frozen=True)
class SegmentArrays:
    """Every segment of a target, ordered by id (apps.tiering.recommendations.services.segment_arrays)."""

    segment_id: Int64s
    size_bytes: Int64s  # allocated at the latest listing; -1: unknown
    in_awr: Bools  # AWR captured it (a top-N source's segment not captured is below its capture)
    is_undo: Bools
    is_temp: Bools
    is_lob: Bools
    is_partition: Bools
    flash_cache: Int16s  # the FLASH_CACHE hint: an index into rules.FLASH_CACHE_CODES
    tier_id: Int64s  # the current tier (its tablespace's effective one); -1: unmapped
    latency_ms: Floats  # its tablespace's measured read latency; NaN: none measured
    partition_group: Int64s  # 0: not a partition; else a hash of its table's (or index's) owner, name, type
    movability: Int16s  # an index into apps.tiering.moves.movability.CODES; 0: a move relocates it
    partition_position: Int32s  # its partition's order by bound (apps.tiering.recommendations.lifecycle); 0: unknown or none
    partition_interval: Bools  # interval partitioning created it
    array_tiering: Bools  # its storage is an array that tiers by itself
    tablespace_code: Int64s  # a hash of its container and tablespace: the pool of a volume (costmodel.pools)

    def __len__(self) -> int:
        return int(self.segment_id.size)

    def take(self, order: np.ndarray) -> SegmentArrays:
        """The segments re-ordered (or filtered) by the index array ``order``."""
        return _take(self, order)


@dataclasses.dataclass(frozen=True)
class WindowCounters:
    """The window's sums of each segment's statistics: a recommendation stores them as the window gives them."""

    read_requests: Int64s
    write_requests: Int64s
    physical_reads_blocks: Int64s
    physical_reads_direct_blocks: Int64s
    optimized_physical_reads: Int64s
    table_scans: Int64s
    db_block_changes: Int64s

    def counters(self) -> dict[str, np.ndarray]:
        """These sums by name, to be stored as they are."""
        return {field.name: getattr(self, field.name) for field in dataclasses.fields(WindowCounters)}


@dataclasses.dataclass(frozen=True)
class WindowColumns(WindowCounters):
    """The window's figures of every segment of :class:`SegmentArrays`, in its order
    (apps.tiering.recommendations.decision): zeros for a segment without activity in the window, ``present`` False."""

    iops: Floats  # the statistic's IOPS: a lower bound where ``unmeasured``
    read_iops: Floats
    write_iops: Floats
    covered_s: Floats  # seconds measured
    unmeasured: Bools  # some read or write requests of the window were not measured (a top-N gap)
    iops_bound: Floats  # upper bound on ``iops`` where unmeasured (NaN: none); ``iops`` where measured
    reads_unmeasured: Bools
    writes_unmeasured: Bools
    gaps: Bools  # the statistic needs values of top-N snapshots that did not capture the segment
    present: Bools  # the window holds the segment at all

    @classmethod
    def zeros(cls, n: int, dtypes: dict[str, np.dtype] | None = None) -> WindowColumns:
        """n segments without activity; ``dtypes`` overrides the dtype of some figures (the window's own)."""
        # mypy checks the class object against Hashable with its instances' __hash__ (a class is hashable).
        own = {**_dtypes(cls), **(dtypes or {})}  # type: ignore[arg-type]
        return cls(**{name: np.zeros(n, dtype=dtype) for name, dtype in own.items()})


@functools.cache
def _dtypes(record: type) -> dict[str, np.dtype]:
    """Each field's dtype, from its ``npt.NDArray[<scalar>]`` annotation."""
    return {name: np.dtype(typing.get_args(typing.get_args(hint)[1])[0])
            for name, hint in typing.get_type_hints(record).items()}


class Coded(NamedTuple):
    """A text column as few distinct labels: row i holds ``labels[codes[i]]`` (written so by apps.core.pgcopy)."""

    codes: npt.NDArray[np.integer]
    labels: Sequence[str]


@dataclasses.dataclass(frozen=True)
class RunFigures:
    """The facts of a whole refresh (tiering_recommendationrun's columns of the same names)."""

    computed_at: dt.datetime
    window_days: int
    window_first_day: dt.date
    window_last_day: dt.date
    statistic: str
    flash_cache_enabled: bool


@dataclasses.dataclass(frozen=True)
class Recommendations(WindowCounters):
    """Every segment's recommendation: one field per column of tiering_recommendation but the run's, named as
    the model's attributes (a foreign key's ``_id``). NaN in a float field and -1 in a nullable integer one
    (a size, residency blocks, tier and LOB ids) stand for NULL; money in whole cents, NaN where unknown."""

    run: RunFigures
    segment_id: Int64s
    iops: Floats  # NaN: not all measured
    read_iops: Floats
    write_iops: Floats
    measured: Bools
    iops_bound: Floats
    size_bytes: Int64s
    size_gb: Floats
    intensity: Floats
    read_requests_per_day: Floats
    flash_blocks: Int64s
    cache_blocks: Int64s
    flash_cache: Coded  # labels rules.FLASH_CACHE_CODES
    below_awr_capture: Bools
    current_tier_id: Int64s
    cost_tier_id: Int64s
    recommended_tier_id: Int64s
    cost_now_usd: Floats
    cost_tier_usd: Floats
    cost_after_usd: Floats
    savings_usd: Floats
    io_time_saved_s_per_day: Floats
    move_seconds: Floats
    move_redo_bytes: Floats
    move_cost_usd: Floats
    payback_days: Floats
    action: Coded  # labels rules.ACTIONS
    findings: Int64s  # bitmask of rules.FINDING_CODES
    folded_into_id: Int64s
    move_group: Coded  # '' when in no group

    def __len__(self) -> int:
        return int(self.segment_id.size)
