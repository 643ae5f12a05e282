"""Segments upserted per collection: unchanged ones are skipped, with the result the full upsert gives."""

from __future__ import annotations

import datetime as dt

import pytest

from apps.snapshots import store
from apps.snapshots.models import Segment
from apps.targets.models import Target
from apps.targets.rows import Collection, DatabaseInfo, SegmentInfo, SegmentKey, SegmentStat, Snapshot

T0 = dt.datetime(2026, 11, 20, 10, 0, tzinfo=dt.timezone.utc)
KEY = SegmentKey("APP", "ORDERS", "P1", "TABLE PARTITION")
DB = DatabaseInfo(dbid=7, db_name="U", release="19.0.0.0.0", is_rac=False, instances=(1,))
COLUMNS = ("owner", "object_name", "subobject_name", "object_type", "tablespace_name", "obj_number",
           "dataobj_number", "partitioned_parent", "lob_column", "size_bytes", "size_at", "buffer_pool",
           "flash_cache", "cell_flash_cache", "in_awr", "first_seen_at", "last_seen_at", "parent_partition",
           "table_partition_name", "partitioning", "partition_bound", "partition_order")


def _listed(**changes) -> Collection:
    info = dict(key=KEY, tablespace_name="DATA", bytes=100, blocks=1, obj_number=1, dataobj_number=1,
                buffer_pool="DEFAULT", flash_cache="DEFAULT", partitioned_parent="ORDERS")
    return Collection(database=DB, segments=(SegmentInfo(**{**info, **changes}),))


def _in_awr_only(*, tablespace: str = "DATA", top_n_only: bool = False, key: SegmentKey = KEY) -> Collection:
    stat = SegmentStat(key=key, tablespace_name=tablespace, obj_number=None, dataobj_number=None,
                       physical_read_requests=1)
    snap = Snapshot(dbid=7, instance_number=1, snap_id=1, begin_at=T0, end_at=T0, startup_at=T0,
                    segment_stats=(stat,), top_n_only=top_n_only)
    return Collection(database=DB, snapshots=(snap,))


CASES = {
    "listed again, the same": _listed(),
    "seen in AWR only (no size, no hints)": _in_awr_only(),
    "seen in AWR only, without a tablespace": _in_awr_only(tablespace=""),
    "grown": _listed(bytes=200),
    "hinted KEEP": _listed(flash_cache="KEEP"),
    "moved to another tablespace": _listed(tablespace_name="FLASH"),
    "in the AWR top-N now": _in_awr_only(top_n_only=True),
    "a new segment": _in_awr_only(key=SegmentKey("APP", "NEW", "", "TABLE")),
    "its partition split: another order by bound": _listed(partition_order=2),
    "read with its partitioning": _listed(partitioning="RANGE-HASH", parent_partition="P", partition_bound="100",
                                          partition_order=1),
}


def _rows(target: Target) -> list[tuple]:
    return list(Segment.objects.filter(target=target).order_by("object_name").values_list("id", *COLUMNS))


@pytest.mark.django_db
@pytest.mark.parametrize("case", CASES)
def test_an_upsert_that_skips_unchanged_segments_leaves_what_the_full_upsert_leaves(case, monkeypatch):
    results = []
    for fast in (True, False):
        target = Target.objects.create(name=f"u-{fast}", mode=Target.Mode.DEMO)
        store.segments_upsert(target_id=target.id, collection=_listed(), seen_at=T0)
        if not fast:  # every segment through the SQL upsert
            monkeypatch.setattr(store, "_stored_segments", lambda *args, **kwargs: {})
        ids = store.segments_upsert(target_id=target.id, collection=CASES[case], seen_at=T0 + dt.timedelta(hours=1))
        monkeypatch.undo()
        rows = _rows(target)
        assert len(ids) == 1 and set(ids.values()) <= {row[0] for row in rows}
        results.append([row[1:] for row in rows])
    skipped, full = results
    # The same segments with the same figures; only the skipped path's timestamps may lag, by under a day.
    assert [row[:10] + row[11:15] for row in skipped] == [row[:10] + row[11:15] for row in full]
    for a, b in zip(skipped, full):
        assert b[16] - a[16] < dt.timedelta(days=1)


@pytest.mark.django_db
def test_an_unchanged_segment_is_not_rewritten_until_a_day_has_passed(monkeypatch):
    target = Target.objects.create(name="u", mode=Target.Mode.DEMO)
    store.segments_upsert(target_id=target.id, collection=_listed(), seen_at=T0)
    writes = []
    write = store._segments_write
    monkeypatch.setattr(store, "_segments_write", lambda rows: writes.append(len(rows)) or write(rows))

    store.segments_upsert(target_id=target.id, collection=_listed(), seen_at=T0 + dt.timedelta(hours=1))
    assert writes == [] and Segment.objects.get(target=target).last_seen_at == T0

    store.segments_upsert(target_id=target.id, collection=_listed(), seen_at=T0 + dt.timedelta(days=1, hours=1))
    assert writes == [1] and Segment.objects.get(target=target).last_seen_at == T0 + dt.timedelta(days=1, hours=1)


@pytest.mark.django_db
def test_a_subpartition_keeps_its_partition_bound_and_order_until_listed_again():
    target = Target.objects.create(name="composite", mode=Target.Mode.DEMO)
    listed = _listed(key=SegmentKey("APP", "ORDERS", "P1_H1", "TABLE SUBPARTITION"), parent_partition="P1",
                     partitioning="RANGE(D)-HASH(ID)", partition_bound="MAXVALUE", partition_order=3)
    store.segments_upsert(target_id=target.id, collection=listed, seen_at=T0)
    # Seen in AWR only afterwards: what the listing said stays.
    store.segments_upsert(target_id=target.id, collection=_in_awr_only(key=listed.segments[0].key),
                          seen_at=T0 + dt.timedelta(hours=1))

    segment = Segment.objects.get(target=target)
    assert (segment.parent_partition, segment.partitioning, segment.partition_bound, segment.partition_order) == (
        "P1", "RANGE(D)-HASH(ID)", "MAXVALUE", 3)
