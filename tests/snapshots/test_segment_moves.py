"""Moves detected while collections are stored (apps.snapshots.moves): mid-batch, between collections, idempotent."""

from __future__ import annotations

import datetime as dt

import pytest

from apps.snapshots import store
from apps.snapshots.models import Segment, SegmentMove
from apps.snapshots.moves import PlannedMove, segment_moves_planned
from apps.targets.models import Target
from apps.targets.rows import Collection, DatabaseInfo, SegmentInfo, SegmentKey, SegmentStat, Snapshot

pytestmark = pytest.mark.django_db

T0 = dt.datetime(2026, 11, 20, 0, 0, tzinfo=dt.timezone.utc)
HOUR = dt.timedelta(hours=1)
KEY = SegmentKey("APP", "ORDERS_PK", "", "INDEX")
OTHER = SegmentKey("APP", "ORDERS", "", "TABLE")
DB = DatabaseInfo(dbid=7, db_name="M", release="19.0.0.0.0", is_rac=False, instances=(1,))


def _snap(snap_id: int, tablespace: str, *, top_n: bool = True) -> Snapshot:
    begin = T0 + (snap_id - 1) * HOUR
    stats = (SegmentStat(KEY, tablespace, 1, 1, physical_read_requests=10, physical_write_requests=1),
             SegmentStat(OTHER, "DATA", 2, 2, physical_read_requests=5, physical_write_requests=5))
    return Snapshot(dbid=7, instance_number=1, snap_id=snap_id, begin_at=begin, end_at=begin + HOUR,
                    startup_at=T0, segment_stats=stats, top_n_only=top_n)


def _store(target: Target, snapshots: list[Snapshot], *, listed: str | None = None,
           seen_at: dt.datetime | None = None) -> None:
    seen_at = seen_at or snapshots[-1].end_at
    segments = (SegmentInfo(KEY, listed, 1024, 1),) if listed else ()
    collection = Collection(database=DB, snapshots=tuple(snapshots), segments=segments, collected_at=seen_at)
    ids = store.segments_upsert(target_id=target.id, collection=collection, seen_at=seen_at)
    store.snapshots_store(target_id=target.id, kind="awr", snapshots=snapshots, segment_ids=ids)


def _moves(target: Target) -> list[tuple]:
    return list(SegmentMove.objects.filter(target=target).order_by("moved_at").values_list(
        "segment__object_name", "from_tablespace", "to_tablespace", "moved_at", "source"))


@pytest.fixture
def target():
    return Target.objects.create(name="moves", mode=Target.Mode.REPORT)


class SegmentMoveDetectionTests:
    def test_it_finds_the_move_at_the_snapshot_that_shows_it_inside_one_batch(self, target):
        _store(target, [_snap(1, "IDX"), _snap(2, "IDX"), _snap(3, "FLASH"), _snap(4, "FLASH")])
        # The move is dated by the begin of the first snapshot on the new tablespace, not the collection.
        assert _moves(target) == [("ORDERS_PK", "IDX", "FLASH", T0 + 2 * HOUR, "collected")]
        assert Segment.objects.get(target=target, object_name="ORDERS_PK").tablespace_name == "FLASH"

    def test_it_finds_a_move_between_two_collections(self, target):
        _store(target, [_snap(1, "IDX"), _snap(2, "IDX")])
        assert _moves(target) == []
        _store(target, [_snap(3, "FLASH"), _snap(4, "FLASH")])
        assert _moves(target) == [("ORDERS_PK", "IDX", "FLASH", T0 + 2 * HOUR, "collected")]

    def test_collecting_the_same_snapshots_again_records_no_second_move(self, target):
        snaps = [_snap(1, "IDX"), _snap(2, "FLASH")]
        _store(target, snaps)
        _store(target, snaps)
        _store(target, snaps, listed="FLASH", seen_at=T0 + 5 * HOUR)
        assert _moves(target) == [("ORDERS_PK", "IDX", "FLASH", T0 + HOUR, "collected")]

    def test_a_move_listed_before_any_snapshot_shows_it_is_dated_back_by_the_first_snapshot_that_does(self, target):
        # DBA_SEGMENTS at 02:20 lists it on FLASH; the snapshots so far (to 02:00) showed IDX.
        _store(target, [_snap(1, "IDX"), _snap(2, "IDX")], listed="FLASH", seen_at=T0 + 2 * HOUR + dt.timedelta(minutes=20))
        assert [m[3] for m in _moves(target)] == [T0 + 2 * HOUR + dt.timedelta(minutes=20)]
        # The next collection's first snapshot (02:00-03:00) shows it there: the move is dated 02:00, still one.
        _store(target, [_snap(3, "FLASH")], listed="FLASH")
        assert _moves(target) == [("ORDERS_PK", "IDX", "FLASH", T0 + 2 * HOUR, "collected")]

    def test_a_move_back_is_a_second_move(self, target):
        _store(target, [_snap(1, "IDX"), _snap(2, "FLASH"), _snap(3, "FLASH"), _snap(4, "IDX")])
        assert [(m[1], m[2], m[3]) for m in _moves(target)] == [("IDX", "FLASH", T0 + HOUR),
                                                                ("FLASH", "IDX", T0 + 3 * HOUR)]

    def test_an_older_report_imported_late_is_not_taken_for_a_move_back(self, target):
        _store(target, [_snap(10, "IDX"), _snap(11, "FLASH")])
        _store(target, [_snap(2, "IDX")])  # a week-old period: the segment was on IDX then, as we know
        assert [(m[1], m[2]) for m in _moves(target)] == [("IDX", "FLASH")]

    def test_a_segment_without_a_tablespace_in_a_row_is_not_moved(self, target):
        _store(target, [_snap(1, "IDX"), _snap(2, ""), _snap(3, "IDX")])
        assert _moves(target) == []


class PlannedMoveTests:
    def test_a_collected_move_takes_over_the_move_a_plan_recorded(self, target):
        _store(target, [_snap(1, "IDX")])
        segment = Segment.objects.get(target=target, object_name="ORDERS_PK")
        segment_moves_planned(target_id=target.id, executed_at=T0 + HOUR + dt.timedelta(minutes=30), since=None,
                              planned=[PlannedMove(segment.id, "IDX", "FLASH", 77)])
        assert _moves(target) == [("ORDERS_PK", "IDX", "FLASH", T0 + HOUR + dt.timedelta(minutes=30), "plan")]
        _store(target, [_snap(2, "IDX"), _snap(3, "FLASH")])
        assert _moves(target) == [("ORDERS_PK", "IDX", "FLASH", T0 + 2 * HOUR, "collected")]
        assert SegmentMove.objects.get().plan_step_id == 77

    def test_a_plan_marked_executed_after_the_collection_saw_the_move_links_to_it(self, target):
        _store(target, [_snap(1, "IDX"), _snap(2, "FLASH")])
        segment = Segment.objects.get(target=target, object_name="ORDERS_PK")
        segment_moves_planned(target_id=target.id, executed_at=T0 + 5 * HOUR, since=T0,
                              planned=[PlannedMove(segment.id, "IDX", "FLASH", 78)])
        move = SegmentMove.objects.get(segment=segment, plan_step_id=78)
        assert (SegmentMove.objects.count(), move.source, move.plan_step_id, move.moved_at) == (
            1, "collected", 78, T0 + HOUR)


class PlannedMovesBulkTests:
    @pytest.mark.parametrize("steps", [3, 300])
    def test_a_plan_of_any_size_is_recorded_in_three_queries(self, target, django_assert_max_num_queries, steps):

        segments = Segment.objects.bulk_create(
            Segment(target=target, owner="APP", object_name=f"T{i}", object_type="TABLE", tablespace_name="DATA",
                    first_seen_at=T0, last_seen_at=T0) for i in range(steps))
        # The first segment's move was collected already: it is linked, the others are recorded as planned.
        SegmentMove.objects.create(target=target, segment=segments[0], from_tablespace="DATA", to_tablespace="FLASH",
                                   moved_at=T0 + HOUR, source="collected", detected_at=T0 + HOUR)
        planned = [PlannedMove(seg.id, "DATA", "FLASH", 1000 + i) for i, seg in enumerate(segments)]

        with django_assert_max_num_queries(3):
            assert segment_moves_planned(target_id=target.id, planned=planned, executed_at=T0 + 2 * HOUR,
                                         since=T0) == steps
        moves = SegmentMove.objects.filter(target=target)
        assert moves.count() == steps and moves.filter(plan_step_id__isnull=True).count() == 0
        assert moves.get(segment=segments[0]).source == "collected"
        assert moves.filter(source="plan", moved_at=T0 + 2 * HOUR).count() == steps - 1
