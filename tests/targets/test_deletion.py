"""Deleting a target: gone from everything at once, its name free, its data removed by a worker a batch a
transaction, resumable after a death, sent again by beat when it did not finish."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection, connections, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from apps.core.locks import LockSpace
from apps.core.models import AuditLogEntry
from apps.dashboard.runs.selectors import run_queryset
from apps.snapshots.models import CollectionRun, Segment, SegmentStat, Snapshot
from apps.snapshots.tasks import snapshot_collect
from apps.targets import deletion
from apps.targets.deletion import target_delete_request, target_purge, target_purges_resume
from apps.targets.models import Target
from apps.tiering.plans.selectors import plan_list
from apps.tiering.plans.services import plan_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def collected(collected_shared):
    return collected_shared  # one collection for the module's tests (tests/conftest.py collected_for_module)


def _rows_of(target_id: int) -> dict[str, int]:
    """Rows that still belong to the target, by model: every relation to Target, and the statistics."""
    rows = {relation.related_model._meta.label: relation.related_model._base_manager.filter(
        **{relation.field.name: target_id}).count() for relation in Target._meta.related_objects}
    rows["snapshots.SegmentStat"] = SegmentStat.objects.filter(snapshot__target_id=target_id).count()
    return {label: count for label, count in rows.items() if count}


@pytest.fixture
def other(db) -> Target:
    """A target that must come out of another's delete untouched."""
    target = Target.objects.create(name="other", mode=Target.Mode.REPORT)
    CollectionRun.objects.create(target=target, status="succeeded", queued_at=timezone.now())
    return target


class DeleteRequestTests:
    def test_it_hides_the_target_at_once_frees_its_name_and_leaves_its_data_to_the_worker(
            self, collected, django_capture_on_commit_callbacks):
        rows = _rows_of(collected.pk)

        with django_capture_on_commit_callbacks() as sent, transaction.atomic():
            target_delete_request(target=collected)

        assert len(sent) == 1  # the purge, sent once committed
        assert not Target.objects.filter(pk=collected.pk).exists()
        hidden = Target.all_objects.get(pk=collected.pk)
        assert (hidden.name, hidden.enabled) == (f"~{collected.pk}~demo", False) and hidden.deleting_since
        assert _rows_of(collected.pk) == rows  # nothing removed in the request
        assert Target.objects.create(name="demo", mode=Target.Mode.REPORT).pk != collected.pk

    def test_its_runs_and_plans_leave_the_lists_of_every_target_at_once(self, collected, other, admin_user):
        plan_create(target=collected, author=admin_user, author_name="ada", all_worth_moving=True)
        assert {run.target_id for run in run_queryset()} == {collected.pk, other.pk}
        assert [plan.target_id for plan in plan_list()] == [collected.pk]

        target_delete_request(target=collected)

        assert {run.target_id for run in run_queryset()} == {other.pk}
        assert list(plan_list()) == []

    def test_asked_twice_it_is_logged_and_sent_once(self, other, django_capture_on_commit_callbacks):
        stale = Target.objects.get(pk=other.pk)
        with django_capture_on_commit_callbacks() as sent:
            target_delete_request(target=other)
            target_delete_request(target=stale)

        assert len(sent) == 1
        assert AuditLogEntry.objects.filter(action=AuditLogEntry.Action.DELETE, object_repr="other").count() == 1

    def test_a_tombstone_name_never_clashes_with_a_valid_name_and_fits_the_column(self, db):
        long = Target.objects.create(name="x" * 60, mode=Target.Mode.REPORT)

        name = deletion.tombstone_name(long)

        assert name.startswith(f"~{long.pk}~x") and len(name) == 60


class PurgeTests:
    def test_it_removes_everything_of_the_target_in_batches_and_nothing_of_another(self, collected, other,
                                                                                   monkeypatch):
        rows = _rows_of(collected.pk)
        other_rows = _rows_of(other.pk)
        stats = rows["snapshots.SegmentStat"]
        assert stats > 10_000 and rows["snapshots.Segment"] > 100  # a real collection's worth
        target_delete_request(target=collected)
        monkeypatch.setattr(deletion, "PURGE_ROWS_PER_TRANSACTION", 2_000)

        with CaptureQueriesContext(connection) as queries:
            deleted = target_purge(target_id=collected.pk)

        assert _rows_of(collected.pk) == {}
        assert not Target.all_objects.filter(pk=collected.pk).exists()
        assert deleted["snapshots.SegmentStat"] == stats and deleted["targets.Target"] == 1
        assert _rows_of(other.pk) == other_rows
        # A batch a transaction: the statistics went a few snapshots or segments at a time, not in one statement.
        stat_deletes = [q for q in queries.captured_queries if q["sql"].startswith('DELETE FROM "snapshots_segmentstat"')]
        assert len(stat_deletes) > stats // 2_000

    def test_a_purge_that_died_half_way_goes_on_where_it_stopped(self, collected, monkeypatch):
        target_delete_request(target=collected)
        monkeypatch.setattr(deletion, "PURGE_ROWS_PER_TRANSACTION", 2_000)
        counted = deletion._count
        calls = []

        def dies_at_the_fifth_batch(deleted, counts):
            calls.append(counts)
            if len(calls) == 5:
                raise RuntimeError("worker killed")
            counted(deleted, counts)

        monkeypatch.setattr(deletion, "_count", dies_at_the_fifth_batch)
        with pytest.raises(RuntimeError):
            target_purge(target_id=collected.pk)
        left = _rows_of(collected.pk)
        assert left and Target.all_objects.filter(pk=collected.pk).exists()  # some gone, the rest still hidden
        assert not Target.objects.filter(pk=collected.pk).exists()

        monkeypatch.setattr(deletion, "_count", counted)
        target_purge(target_id=collected.pk)

        assert _rows_of(collected.pk) == {} and not Target.all_objects.filter(pk=collected.pk).exists()

    def test_a_purge_sent_again_while_another_runs_leaves_it_to_that_one(self, other):
        target_delete_request(target=other)
        running = connections.create_connection("default")  # the worker running the first purge
        lock = [int(LockSpace.TARGET_PURGE), other.pk]
        try:
            with running.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_lock(%s, %s)", lock)

            assert target_purge(target_id=other.pk) == {}
            assert _rows_of(other.pk) and Target.all_objects.filter(pk=other.pk).exists()

            with running.cursor() as cursor:  # that purge ends (released here: a closed session's backend may
                cursor.execute("SELECT pg_advisory_unlock(%s, %s)", lock)  # hold it a moment longer)
        finally:
            running.close()

        assert target_purge(target_id=other.pk)["targets.Target"] == 1

    def test_a_target_not_marked_or_already_gone_is_left_alone(self, other):
        assert target_purge(target_id=other.pk) == {}
        assert target_purge(target_id=other.pk + 1000) == {}
        assert Target.objects.filter(pk=other.pk).exists() and _rows_of(other.pk)


class ResumeTests:
    def test_beat_sends_again_the_purges_not_done_after_a_while(self, other, seed_tiers):
        now = timezone.now()
        stale = Target.objects.create(name="stale", mode=Target.Mode.REPORT)
        CollectionRun.objects.create(target=stale, status="succeeded", queued_at=now)
        target_delete_request(target=stale, now=now - deletion.PURGE_RESEND_AFTER - dt.timedelta(minutes=1))
        target_delete_request(target=other, now=now)  # asked for just now: its first send is still due

        assert target_purges_resume(now=now) == [stale.pk]  # tasks run eagerly in tests: purged here

        assert not Target.all_objects.filter(pk=stale.pk).exists() and _rows_of(stale.pk) == {}
        assert Target.all_objects.filter(pk=other.pk).exists() and _rows_of(other.pk)


def test_a_collection_queued_for_a_target_being_deleted_does_nothing_as_for_a_deleted_one(collected):
    snapshots = Snapshot.objects.filter(target=collected).count()
    target_delete_request(target=collected)

    result = snapshot_collect.apply(args=(collected.pk, None))

    assert result.successful(), result.traceback
    assert result.get() == f"skipped: target {collected.pk} no longer exists (deleted)"
    assert Snapshot.objects.filter(target_id=collected.pk).count() == snapshots
    assert Segment.objects.filter(target_id=collected.pk).exists()
