"""The layouts of the rows apps.snapshots.store writes and compares when it upserts a collection's segments.

The upsert keeps its 100k rows a collection as plain tuples in these orders and reads them through these
records (``SegmentRow._make(row)``, C speed) where it compares them: the garbage collector stops tracking
a plain tuple of plain values, not a NamedTuple, and 200k of those kept alive slowed the upsert by a third.
"""

from __future__ import annotations

import datetime as dt
from typing import NamedTuple

from apps.targets.rows import SegmentKey


class SegmentRow(NamedTuple):
    """A segment as segments_upsert writes it: the columns of snapshots_segment it sets, in the order of its
    COPY. ``size_at`` is set when the source listed the segment (DBA_SEGMENTS)."""

    target_id: int
    owner: str
    object_name: str
    subobject_name: str
    object_type: str
    tablespace_name: str
    obj_number: int | None
    dataobj_number: int | None
    partitioned_parent: str
    lob_column: str
    size_bytes: int | None
    size_at: dt.datetime | None
    buffer_pool: str
    flash_cache: str
    cell_flash_cache: str
    in_awr: bool
    name_truncated: bool
    first_seen_at: dt.datetime
    last_seen_at: dt.datetime
    partition_position: int | None
    partition_interval: bool | None
    parent_partition: str
    table_partition_name: str
    partitioning: str
    partition_bound: str
    partition_order: int | None
    container: str


class StoredSegment(NamedTuple):
    """A stored segment's id, key and the values segments_upsert compares (:func:`_unchanged`)."""

    id: int
    owner: str
    object_name: str
    subobject_name: str
    object_type: str
    container: str
    tablespace_name: str
    obj_number: int | None
    dataobj_number: int | None
    size_bytes: int | None
    in_awr: bool
    name_truncated: bool
    partitioned_parent: str
    lob_column: str
    buffer_pool: str
    flash_cache: str
    cell_flash_cache: str
    partition_position: int | None
    partition_interval: bool | None
    parent_partition: str
    table_partition_name: str
    partitioning: str
    partition_bound: str
    partition_order: int | None

    @staticmethod
    def key_of(row: tuple[object, ...]) -> SegmentKey:
        """The key of a stored segment given as a plain tuple in StoredSegment's order."""
        return SegmentKey._make(row[_KEY])  # from the slice: a fifth of SegmentKey(...) by its fields


#: StoredSegment's fields that are SegmentKey's, in its order (checked below).
_KEY = slice(1, 6)
if tuple(StoredSegment._fields)[_KEY] != SegmentKey._fields:  # tuple(): mypy types a fixed tuple's [slice] as an item
    raise ImportError(f"StoredSegment{StoredSegment._fields[_KEY]} must hold SegmentKey{SegmentKey._fields} in order")
