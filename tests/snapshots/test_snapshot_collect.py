"""Collection runs of one target, against the real test database (the demo and a fake Oracle boundary)."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from apps.snapshots.models import CollectionRun, Segment, SegmentStat, Snapshot
from apps.snapshots.services import snapshot_collect
from apps.targets.models import Target
from apps.tiering.models import Recommendation
from tests.snapshots.run_lock import run_lock_held
from tests.snapshots.stored_counts import stored_counts


@pytest.mark.django_db
class SnapshotCollectTests:
    def test_it_backfills_eight_days_of_hourly_demo_snapshots(self, demo_target, collect):
        run = collect(demo_target)

        assert run.status == CollectionRun.Status.SUCCEEDED, run.error
        snapshots = Snapshot.objects.filter(target=demo_target, kind="demo")
        assert 190 <= snapshots.count() <= 193
        assert {s.interval_seconds for s in snapshots} == {3600.0}
        assert run.snapshots_added == Snapshot.objects.filter(target=demo_target).count()
        assert Segment.objects.filter(target=demo_target).count() >= 60

    def test_it_adds_nothing_when_run_again(self, demo_target, collect):
        collect(demo_target)
        before = stored_counts(demo_target)

        run = collect(demo_target)

        assert run.status == CollectionRun.Status.SUCCEEDED
        assert run.snapshots_added == 0
        assert stored_counts(demo_target) == before

    def test_it_never_stores_a_negative_delta(self, demo_target, collect):
        collect(demo_target)

        negative = SegmentStat.objects.filter(target_filter(demo_target)).filter(
            physical_read_requests__lt=0
        ) | SegmentStat.objects.filter(target_filter(demo_target)).filter(physical_write_requests__lt=0)
        assert not negative.exists()

    def test_it_writes_recommendations_after_collecting(self, demo_target, collect):
        collect(demo_target)

        recs = Recommendation.objects.current(target_id=demo_target.id)
        assert recs.count() == Segment.objects.filter(target=demo_target).count()
        assert recs.exclude(recommended_tier=None).exists()

    def test_it_skips_when_another_collection_of_the_target_holds_the_lock(self, demo_target, collect):
        with run_lock_held(demo_target.id):
            run = collect(demo_target)

        assert run.status == CollectionRun.Status.SKIPPED
        assert "Another collection" in run.error
        assert Snapshot.objects.filter(target=demo_target).count() == 0

    def test_it_marks_a_dead_workers_run_as_failed(self, demo_target, collect):
        from django.utils import timezone

        stale = CollectionRun.objects.create(target=demo_target, status=CollectionRun.Status.RUNNING,
                                             queued_at=timezone.now(), started_at=timezone.now())

        collect(demo_target)

        stale.refresh_from_db()
        assert stale.status == CollectionRun.Status.FAILED
        assert "stopped before it finished" in stale.error


def target_filter(target: Target):
    from django.db.models import Q

    return Q(snapshot__target=target)


@pytest.mark.django_db(transaction=True)
class ConcurrentCollectTests:
    def test_two_overlapping_runs_never_both_proceed(self, demo_target):
        results: list[str] = []
        barrier = threading.Barrier(2)

        def collect() -> None:
            barrier.wait()
            try:
                results.append(snapshot_collect(target_id=demo_target.id, trigger="command").status)
            finally:
                connection.close()

        threads = [threading.Thread(target=collect) for _ in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()

        assert sorted(results) == [CollectionRun.Status.SKIPPED, CollectionRun.Status.SUCCEEDED]
        stored = Snapshot.objects.filter(target=demo_target).count()
        assert 190 <= stored <= 193
