"""The rows apps.snapshots.store writes and compares when it upserts a collection's segments.

NamedTuples, not dataclasses: a collection makes one of each per segment (100k), and they go to COPY
(``SegmentRow``) and compare (:func:`apps.snapshots.store._unchanged`) as tuples, in C.
"""

from __future__ import annotations

import datetime as dt
from typing import NamedTuple

from apps.targets.rows import SegmentKey


class SegmentRow(NamedTuple):
    """A segment as segments_upsert writes it: the columns of snapshots_segment it sets (a NamedTuple: 100k of
    them go to COPY as they are). ``size_at`` is set when the source listed the segment (DBA_SEGMENTS)."""

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

    @property
    def key(self) -> SegmentKey:
        return SegmentKey(self.owner, self.object_name, self.subobject_name, self.object_type, self.container)


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

    @property
    def key(self) -> SegmentKey:
        return SegmentKey(self.owner, self.object_name, self.subobject_name, self.object_type, self.container)
