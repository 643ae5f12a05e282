"""A LOB index counted with its LOB: which LOBINDEX belongs to which LOB segment, and their figures added up.

Oracle keeps a LOB column's data in a LOB segment and its chunk map in a LOB
index, and moves both with one statement (``ALTER TABLE ... MOVE LOB(col) STORE AS
(TABLESPACE x)``); the index never moves by itself (apps.tiering.moves.movability,
"moves_with_lob"). So the refresh prices and judges a LOB with its index: the
LOB's size and IO include the index's (:func:`fold`), and the index's own row is
marked as folded into its LOB (never recommended alone, left out of the sums).

Which LOB an index belongs to (:func:`lob_index_pairs`):

* the table and column: DBA_LOBS gives SEGMENT_NAME and INDEX_NAME on one row, so
  the segments query (apps/targets/oracle/sql/segments.sql) gives the LOB segment
  and the LOB index the same table (``partitioned_parent``) and column
  (``lob_column``);
* else the name: a system-named LOB segment is SYS_LOB<obj#>C<col#>$$ and its
  index SYS_IL<obj#>C<col#>$$, with the same object and column numbers (an AWR
  report, which names neither table nor column, lists them so).

Only a LOB segment (LOBSEGMENT) and its one LOB index are paired; LOB partitions
and their index partitions are left as they are.

IO: a window's IOPS is a percentile (p95) of each segment's per-interval IOPS, so
the pair's IOPS is the sum of the two percentiles: at least the pair's own p95
(the two need not peak together), never less. An unknown part (a size not
known, IO not all measured) leaves the pair's figure unknown or a lower bound,
never a 0 for the part nobody measured.

Pure: standard library and numpy.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from typing import NamedTuple

import numpy as np

from apps.tiering.moves.movability import LOB_INDEX_TYPES
from apps.tiering.recommendations.decision_records import WindowColumns

LOB_SEGMENT_TYPES = frozenset({"LOBSEGMENT"})
LOB_PREFIX, LOB_INDEX_PREFIX = "SYS_LOB", "SYS_IL"


class LobRow(NamedTuple):
    """A LOB segment or LOB index as the segments table holds it."""

    segment_id: int
    owner: str
    object_name: str
    object_type: str
    partitioned_parent: str
    lob_column: str
    container: str = ""  # the PDB: an index pairs with a LOB of its own container only


def lob_index_pairs(rows: Iterable[LobRow]) -> dict[int, int]:
    """LOB index segment id -> its LOB segment's id, by table and column, else by the system names' shared
    object and column numbers (module docstring). An index whose LOB is not among ``rows`` is not paired.

    >>> pairs = lob_index_pairs([LobRow(1, "SOE", "SYS_LOB0000087654C00003$$", "LOBSEGMENT", "DOCS", "BODY"),
    ...                          LobRow(2, "SOE", "SYS_IL0000087654C00003$$", "LOBINDEX", "DOCS", "BODY"),
    ...                          LobRow(3, "APP", "SYS_LOB0000012345C00002$$", "LOBSEGMENT", "", ""),
    ...                          LobRow(4, "APP", "SYS_IL0000012345C00002$$", "LOBINDEX", "", ""),
    ...                          LobRow(5, "APP", "SYS_IL0000099999C00002$$", "LOBINDEX", "", "")])
    >>> pairs
    {2: 1, 4: 3}
    """
    rows = list(rows)
    by_column: dict[tuple[str, str, str, str], int] = {}
    by_name: dict[tuple[str, str, str], int] = {}
    for row in rows:
        if _kind(row.object_type) in LOB_SEGMENT_TYPES:
            if row.partitioned_parent and row.lob_column:
                by_column.setdefault((row.container, row.owner, row.partitioned_parent, row.lob_column), row.segment_id)
            if row.object_name.startswith(LOB_PREFIX):
                by_name.setdefault((row.container, row.owner, row.object_name.removeprefix(LOB_PREFIX)), row.segment_id)
    pairs = {}
    for row in rows:
        if not is_lob_index(row.object_type, row.object_name):
            continue
        lob = by_column.get((row.container, row.owner, row.partitioned_parent, row.lob_column)) if row.lob_column else None
        if lob is None and row.object_name.startswith(LOB_INDEX_PREFIX):
            lob = by_name.get((row.container, row.owner, row.object_name.removeprefix(LOB_INDEX_PREFIX)))
        if lob is not None:
            pairs[row.segment_id] = lob
    return pairs


def is_lob_index(object_type: str, object_name: str) -> bool:
    """A LOBINDEX segment, or an INDEX named as a LOB's (an AWR report's spelling)."""
    kind = _kind(object_type)
    return kind in LOB_INDEX_TYPES or (kind == "INDEX" and object_name.startswith(LOB_INDEX_PREFIX)
                                       and object_name.endswith("$$"))


def _kind(object_type: str) -> str:
    return " ".join(object_type.upper().split())


def positions(ids: np.ndarray, pairs: Mapping[int, int]) -> np.ndarray:
    """For each segment of the sorted ``ids``, the position of the LOB it is folded into (-1: none)."""
    lob_of = np.full(ids.size, -1, dtype=np.int64)
    if not pairs or not ids.size:
        return lob_of
    index_ids = np.fromiter(pairs.keys(), dtype=np.int64, count=len(pairs))
    lob_ids = np.fromiter(pairs.values(), dtype=np.int64, count=len(pairs))
    at_index, at_lob = (np.minimum(np.searchsorted(ids, values), ids.size - 1) for values in (index_ids, lob_ids))
    known = (ids[at_index] == index_ids) & (ids[at_lob] == lob_ids)
    lob_of[at_index[known]] = at_lob[known]
    return lob_of


#: Window figures (apps.tiering.recommendations.decision._aligned) that add up, and flags that say a part is unknown.
_SUMMED = ("iops", "read_iops", "write_iops", "read_requests", "write_requests", "physical_reads_blocks",
           "physical_reads_direct_blocks", "optimized_physical_reads", "table_scans", "db_block_changes",
           "iops_bound")  # the bound is the IOPS where measured, NaN where unbounded: NaN on either side stays
_EITHER = ("unmeasured", "reads_unmeasured", "writes_unmeasured", "gaps")


def fold(window: WindowColumns, size_bytes: np.ndarray, residency: tuple[np.ndarray, np.ndarray],
         lob_of: np.ndarray) -> tuple[WindowColumns, np.ndarray, tuple[np.ndarray, np.ndarray]]:
    """(window, size_bytes, residency) with each LOB's figures plus its index's (``lob_of``: :func:`positions`);
    the index rows keep their own. A size unknown (-1) on either side leaves the LOB's unknown; IO not all
    measured on either side leaves it a lower bound, bounded where both sides are (measured IOPS or bound).

    >>> window = WindowColumns.zeros(2, {name: np.float64 for name in _SUMMED})
    >>> window.iops[:] = [4.0, 1.0]
    >>> folded, size, _ = fold(window, np.array([100, 20]), (np.array([1.0, np.nan]), np.array([2.0, 3.0])),
    ...                        np.array([-1, 0]))
    >>> folded.iops.tolist(), size.tolist()
    ([5.0, 1.0], [120, 20])
    """
    index = np.flatnonzero(lob_of >= 0)
    if not index.size:
        return window, size_bytes, residency
    lob = lob_of[index]
    out = {field.name: np.array(getattr(window, field.name), copy=True) for field in dataclasses.fields(window)}
    for name in _SUMMED:
        np.add.at(out[name], lob, getattr(window, name)[index])
    for name in _EITHER:
        np.logical_or.at(out[name], lob, getattr(window, name)[index])
    np.maximum.at(out["covered_s"], lob, window.covered_s[index])
    size = np.array(size_bytes, copy=True)
    unknown = (size_bytes[index] < 0) | (size_bytes[lob] < 0)
    np.add.at(size, lob, size_bytes[index])
    size[lob[unknown]] = -1
    flash, cache = (np.array(values, dtype=np.float64, copy=True) for values in residency)
    for folded, own in ((flash, residency[0]), (cache, residency[1])):
        either = ~np.isnan(own[index])  # collected for the index: add it (to 0 where the LOB's was not)
        folded[lob[either]] = np.nan_to_num(folded[lob[either]])
        np.add.at(folded, lob[either], own[index][either])
    return WindowColumns(**out), size, (flash, cache)
