"""Writing a source's Collection into PostgreSQL.

Segments are upserted first (identity = container, owner, object, subobject, type); then
each snapshot is written in its own transaction with all its rows (segment
stats by COPY, system stats, tablespace IO), or not at all: the natural key
(target, dbid, instance, kind, snap_id) makes a re-run skip what is stored.
"""

from __future__ import annotations

import datetime as dt
import operator
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.db import connection, transaction
from django.db.models import Max

from apps.core.config import get_config
from apps.core.time import utc_day
from apps.snapshots import sql as pg
from apps.snapshots.models import Residency, SampleState, Segment, Snapshot, SysStat, TablespaceIO, TablespaceSpace
from apps.snapshots.moves import collection_place_changes, segment_moves_record
from apps.snapshots.partitions import partitions_ensure
from apps.snapshots.segment_rows import SegmentRow, StoredSegment
from apps.targets.rows import SEGMENT_STAT_FIELDS, Collection, SegmentKey
from apps.targets.rows import Residency as ResidencyRow
from apps.targets.rows import Snapshot as SnapshotRow
from apps.targets.rows import TablespaceSpace as TablespaceSpaceRow

SEGMENT_STAT_COLUMNS = ("snapshot_id", "segment_id", "end_at", "interval_s", *SEGMENT_STAT_FIELDS, "space_allocated_bytes",
                        "read_requests_bound", "write_requests_bound")


@dataclass(frozen=True)
class SegmentPlace:
    tablespace_name: str
    obj_number: int | None
    dataobj_number: int | None


@dataclass
class StoreResult:
    snapshots_added: int = 0
    rows_added: int = 0


def collection_segment_places(collection: Collection) -> dict[SegmentKey, SegmentPlace]:
    """Every segment the collection mentions, with the latest place we know.

    Precedence: DBA_SEGMENTS (segments) over the newest snapshot a segment
    appears in, over the V$ samples.
    """
    places: dict[SegmentKey, SegmentPlace] = {
        info.key: SegmentPlace(info.tablespace_name, info.obj_number, info.dataobj_number)
        for info in collection.segments
    }
    for snap in sorted(collection.snapshots, key=lambda s: s.end_at, reverse=True):
        for stat in snap.segment_stats:
            if stat.key not in places:
                places[stat.key] = SegmentPlace(stat.tablespace_name, stat.obj_number, stat.dataobj_number)
    for sample in collection.samples:
        for key, (tablespace, obj, dataobj) in sample.segment_places.items():
            places.setdefault(key, SegmentPlace(tablespace, obj, dataobj))
        for key in sample.segment_totals:
            places.setdefault(key, SegmentPlace("", None, None))
    return places


def segments_upsert(*, target_id: int, collection: Collection, seen_at: dt.datetime) -> dict[SegmentKey, int]:
    """Insert new segments, refresh known ones; returns key -> segment id."""
    places = collection_segment_places(collection)
    infos = {info.key: info for info in collection.segments}
    in_awr = {stat.key for snap in collection.snapshots if snap.top_n_only for stat in snap.segment_stats}
    truncated = {stat.key for snap in collection.snapshots for stat in snap.segment_stats if stat.name_truncated}
    rows = []
    for key, place in places.items():
        info = infos.get(key)
        # Plain tuples in SegmentRow's order (see _unchanged), 100k a collection.
        rows.append((key, (
            target_id, key.owner, key.object_name, key.subobject_name, key.object_type,
            place.tablespace_name, place.obj_number, place.dataobj_number,
            (info.partitioned_parent or "") if info else "",  # partitioned_parent
            (info.lob_column or "") if info else "",  # lob_column
            info.bytes if info else None,  # size_bytes
            seen_at if info else None,  # size_at
            (info.buffer_pool or "") if info else "",
            (info.flash_cache or "") if info else "",
            (info.cell_flash_cache or "") if info else "",
            key in in_awr, key in truncated and info is None,  # in_awr, name_truncated
            seen_at, seen_at,  # first_seen_at, last_seen_at
            info.partition_position if info else None, info.partition_interval if info else None,
            *(_composite(info) if info else _NOT_COMPOSITE),  # parent_partition ... partition_order
            key.container,
        )))
    # Most segments of a collection are stored already and unchanged: those keep their row (its
    # timestamps advance once a day, as in apps.snapshots.sql.SEGMENT_UPSERT); only the others go through the upsert.
    ids: dict[SegmentKey, int] = {}
    stored = _stored_segments(target_id, since=seen_at - dt.timedelta(days=1))
    changed = []
    for key, row in rows:
        stored_row = stored.get(key)
        if stored_row is not None and _unchanged(SegmentRow._make(row), known := StoredSegment._make(stored_row)):
            ids[key] = known.id
        else:
            changed.append(row)
    # Moves (apps.snapshots.moves) are read against the places stored before this upsert, and stored with it.
    moved = collection_place_changes(
        target_id=target_id, collection=collection, seen_at=seen_at,
        stored_places={key: StoredSegment._make(known).tablespace_name for key, known in stored.items()})
    with transaction.atomic():
        if changed:
            ids.update(_segments_write(changed))
        segment_moves_record(target_id=target_id, changes=moved, segment_ids=ids)
    return ids


_NOT_COMPOSITE = ("", "", "", "", None)


def _composite(info) -> tuple:
    """A listed segment's composite-partitioning columns, in SegmentRow's order ("" / None: not said)."""
    return (info.parent_partition or "", info.table_partition_name or "", info.partitioning or "",
            info.partition_bound or "", info.partition_order)


#: What a listing (DBA_SEGMENTS) sets and a segment seen in AWR only leaves as it was (apps.snapshots.sql.
#: SEGMENT_MERGE).
_LISTED = operator.attrgetter("partitioned_parent", "lob_column", "buffer_pool", "flash_cache", "cell_flash_cache",
                              "partition_position", "partition_interval", "parent_partition", "table_partition_name",
                              "partitioning", "partition_bound", "partition_order")


def _unchanged(row: SegmentRow, stored: StoredSegment) -> bool:
    """Whether the upsert of ``row`` would leave ``stored`` (_stored_segments) as it is, by the rules of
    apps.snapshots.sql.SEGMENT_MERGE."""
    listed = row.size_at is not None  # the source listed the segment (DBA_SEGMENTS)
    return (row.tablespace_name in ("", stored.tablespace_name) and row.obj_number in (None, stored.obj_number)
            and row.dataobj_number in (None, stored.dataobj_number) and row.size_bytes in (None, stored.size_bytes)
            and (stored.in_awr or not row.in_awr) and row.name_truncated == stored.name_truncated
            and (not listed or _LISTED(row) == _LISTED(stored)))


def _stored_segments(target_id: int, *, since: dt.datetime) -> dict[SegmentKey, tuple]:
    """key -> the stored segment as a plain tuple in StoredSegment's order, for the target's segments seen
    since ``since``."""
    rows = Segment.objects.filter(target_id=target_id, last_seen_at__gte=since).values_list(*StoredSegment._fields)
    return {StoredSegment.key_of(row): row for row in rows}


def _segments_write(rows: list[tuple]) -> dict[SegmentKey, int]:
    """Upsert ``rows`` (plain tuples in SegmentRow's order) through a staging table; their keys -> ids."""
    with transaction.atomic(), connection.cursor() as cursor:
        # ON COMMIT DROP does not fire inside an outer transaction (a savepoint): drop explicitly too.
        cursor.execute(pg.SEGMENT_IN_DROP_IF_EXISTS)
        cursor.execute(pg.SEGMENT_IN_CREATE)  # the columns of SegmentRow with the segment table's own types
        with cursor.cursor.copy(pg.SEGMENT_IN_COPY) as copy:
            for row in rows:
                copy.write_row(row)
        cursor.execute(pg.SEGMENT_UPSERT)
        cursor.execute(pg.SEGMENT_IN_IDS)
        ids = {SegmentKey(o, n, sub, t, c): seg_id for seg_id, o, n, sub, t, c in cursor.fetchall()}
        cursor.execute(pg.SEGMENT_IN_DROP)
        return ids


_STAT_VALUES = operator.attrgetter(*SEGMENT_STAT_FIELDS, "space_allocated_bytes", "read_requests_bound",
                                   "write_requests_bound")


def snapshot_batches(snapshots: Sequence[SnapshotRow], *, max_rows: int) -> list[list[SnapshotRow]]:
    """Consecutive snapshots grouped so that each group holds at most ``max_rows`` stats (or one snapshot):
    a transaction of the store holds whole snapshots, up to COLLECT_BATCH_ROWS rows.

    >>> import datetime as dt
    >>> t = dt.datetime(2026, 1, 1, tzinfo=dt.timezone.utc)
    >>> snaps = [SnapshotRow(1, 1, n, t, t, t) for n in range(3)]
    >>> [len(b) for b in snapshot_batches(snaps, max_rows=0)]
    [1, 1, 1]
    """
    batches: list[list[SnapshotRow]] = []
    rows = 0
    for snap in snapshots:
        size = len(snap.segment_stats)
        if not batches or rows + size > max_rows:
            batches.append([])
            rows = 0
        batches[-1].append(snap)
        rows += size
    return batches


def snapshots_store(
    *, target_id: int, kind: str, snapshots: Sequence[SnapshotRow], segment_ids: dict[SegmentKey, int]
) -> StoreResult:
    """Write snapshots with all their rows; each transaction holds whole snapshots only.

    Snapshots already stored (same natural key) are skipped, so a re-run or a
    rerun after a killed worker adds exactly what is missing.
    """
    # Before the batches, in a short transaction of its own: creating a partition locks the whole table.
    partitions_ensure(utc_day(s.end_at) for s in snapshots if s.segment_stats)
    result = StoreResult()
    for batch in snapshot_batches(snapshots, max_rows=get_config()["COLLECT_BATCH_ROWS"]):
        with transaction.atomic():
            new = _insert_snapshots(target_id=target_id, kind=kind, batch=batch)
            if not new:
                continue
            rows = _copy_segment_stats(new, segment_ids)
            sysstats = [SysStat(snapshot_id=snap_pk, name=s.name, value=s.value)
                        for snap_pk, snap in new for s in snap.sysstats]
            SysStat.objects.bulk_create(sysstats)
            tablespace_io = [
                TablespaceIO(snapshot_id=snap_pk, tablespace_name=t.tablespace_name, read_requests=t.read_requests,
                             write_requests=t.write_requests, read_time_ms=t.read_time_ms)
                for snap_pk, snap in new for t in snap.tablespace_io
            ]
            TablespaceIO.objects.bulk_create(tablespace_io)
        result.snapshots_added += len(new)
        result.rows_added += rows + len(sysstats) + len(tablespace_io) + len(new)
    return result


def _insert_snapshots(*, target_id: int, kind: str, batch: Sequence[SnapshotRow]) -> list[tuple[int, SnapshotRow]]:
    """Insert the batch's snapshot rows; returns (id, row) of those that were not stored yet."""
    values = [(target_id, kind, s.dbid, s.instance_number, s.snap_id, s.begin_at, s.end_at, s.startup_at,
               s.top_n_only, s.unlisted_read_requests_bound, s.unlisted_write_requests_bound, s.database_instances)
              for s in batch]
    with connection.cursor() as cursor:
        cursor.execute(pg.SNAPSHOTS_INSERT, [list(column) for column in zip(*values)])
        inserted = {(dbid, inst, snap_id): pk for pk, dbid, inst, snap_id in cursor.fetchall()}
    return [(inserted[(s.dbid, s.instance_number, s.snap_id)], s) for s in batch
            if (s.dbid, s.instance_number, s.snap_id) in inserted]


def _copy_segment_stats(new: Sequence[tuple[int, SnapshotRow]], segment_ids: dict[SegmentKey, int]) -> int:
    count = 0
    with connection.cursor() as cursor, cursor.cursor.copy(pg.segment_stats_copy(SEGMENT_STAT_COLUMNS)) as copy:
        write = copy.write_row
        for snap_pk, snap in new:
            head = (snap_pk,)
            tail = (snap.end_at, snap.interval_seconds)
            for stat in snap.segment_stats:
                write(head + (segment_ids[stat.key],) + tail + _STAT_VALUES(stat))
            count += len(snap.segment_stats)
    return count


def residency_store(
    *, target_id: int, collected_at: dt.datetime, rows: Sequence[ResidencyRow], dataobj_to_segment: dict[int, int]
) -> int:
    """Store V$BH residency; OBJD values that match no tracked segment (undo, temp, dropped) are skipped."""
    objs = [
        Residency(target_id=target_id, segment_id=dataobj_to_segment[r.dataobj_number], collected_at=collected_at,
                  instance_number=r.instance_number, flash_blocks=r.flash_blocks, cache_blocks=r.cache_blocks)
        for r in rows
        if r.dataobj_number in dataobj_to_segment
    ]
    Residency.objects.bulk_create(objs, ignore_conflicts=True)
    return len(objs)


def tablespace_space_store(*, target_id: int, collected_at: dt.datetime, rows: Sequence[TablespaceSpaceRow]) -> int:
    """Store the room per tablespace of one collection; a re-run at the same time adds nothing."""
    objs = [
        TablespaceSpace(target_id=target_id, collected_at=collected_at, tablespace_name=row.tablespace_name,
                        size_bytes=row.size_bytes, used_bytes=row.used_bytes, max_size_bytes=row.max_size_bytes,
                        block_size_bytes=row.block_size_bytes, autoextensible=row.autoextensible)
        for row in rows
    ]
    TablespaceSpace.objects.bulk_create(objs, ignore_conflicts=True)
    return len(objs)


def sample_state_save(*, target_id: int, instance_number: int, startup_at: dt.datetime, sampled_at: dt.datetime,
                      payload: dict) -> None:
    SampleState.objects.update_or_create(
        target_id=target_id, instance_number=instance_number,
        defaults={"startup_at": startup_at, "sampled_at": sampled_at, "payload": payload},
    )


def dataobj_map(*, target_id: int, keys_to_ids: dict[SegmentKey, int], collection: Collection) -> dict[int, int]:
    mapping = {number: pk for number, pk in Segment.objects.filter(
        target_id=target_id, dataobj_number__isnull=False).values_list("dataobj_number", "id") if number is not None}
    for info in collection.segments:
        if info.dataobj_number is not None and info.key in keys_to_ids:
            mapping[info.dataobj_number] = keys_to_ids[info.key]
    return mapping


def last_snap_ids(*, target_id: int, kinds: Iterable[str]) -> dict[tuple[int, int], int]:
    rows = (
        Snapshot.objects.filter(target_id=target_id, kind__in=list(kinds))
        .values("dbid", "instance_number")
        .annotate(last=Max("snap_id"))
        .order_by()
    )
    return {(r["dbid"], r["instance_number"]): r["last"] for r in rows}
