"""Runs are never lost, never stuck: the reaper, late deliveries, PostgreSQL errors mid-run, a broker that is down."""

from __future__ import annotations

import datetime as dt
import time

import pytest
from django.db import OperationalError, transaction
from django.utils import timezone

from apps.core.locks import LockSpace
from apps.snapshots import services
from apps.snapshots.models import CollectionRun, Snapshot
from apps.snapshots.runs import BrokerUnavailable, RunEnded, run_enqueue, runs_reap
from apps.snapshots.services import CollectRetryable, snapshot_collect
from apps.targets.models import Target
from tests.snapshots.run_lock import run_lock_held
from tests.waiting import wait_for

Status = CollectionRun.Status


def _run(target: Target, *, status: str, minutes_ago: float) -> CollectionRun:
    at = timezone.now() - dt.timedelta(minutes=minutes_ago)
    return CollectionRun.objects.create(target=target, status=status, queued_at=at,
                                        started_at=at if status == Status.RUNNING else None, attempts=1)


@pytest.mark.django_db
class RunsReapTests:
    def test_it_fails_a_running_run_whose_worker_died_and_makes_its_target_due(self, demo_target):
        demo_target.next_collect_at = timezone.now() + dt.timedelta(hours=1)
        demo_target.save()
        run = _run(demo_target, status=Status.RUNNING, minutes_ago=5)  # nobody holds the target's lock

        reaped = runs_reap(now=timezone.now())

        run.refresh_from_db()
        demo_target.refresh_from_db()
        assert reaped == [run.id]
        assert run.status == Status.FAILED
        assert "stopped before it finished" in run.error
        assert demo_target.next_collect_at <= timezone.now()

    def test_it_leaves_a_run_whose_worker_holds_the_lock(self, demo_target):
        run = _run(demo_target, status=Status.RUNNING, minutes_ago=5)
        with run_lock_held(demo_target.id):  # the live worker's session
            assert runs_reap(now=timezone.now()) == []
        run.refresh_from_db()
        assert run.status == Status.RUNNING

    def test_it_leaves_a_run_that_has_just_started(self, demo_target):
        run = _run(demo_target, status=Status.RUNNING, minutes_ago=0.1)  # its lock may not be taken yet

        assert runs_reap(now=timezone.now()) == []
        run.refresh_from_db()
        assert run.status == Status.RUNNING

    def test_it_fails_a_run_running_past_every_time_limit_even_with_its_lock_held(self, demo_target):
        run = _run(demo_target, status=Status.RUNNING, minutes_ago=30)
        with run_lock_held(demo_target.id):
            assert runs_reap(now=timezone.now()) == [run.id]
        run.refresh_from_db()
        assert run.status == Status.FAILED and "still running after 25 minutes" in run.error

    def test_it_fails_a_queued_run_whose_task_never_started(self, demo_target):
        stale = _run(demo_target, status=Status.QUEUED, minutes_ago=61)
        fresh = _run(demo_target, status=Status.QUEUED, minutes_ago=5)

        assert runs_reap(now=timezone.now()) == [stale.id]
        stale.refresh_from_db()
        fresh.refresh_from_db()
        assert stale.status == Status.FAILED and "Never started" in stale.error
        assert fresh.status == Status.QUEUED

    def test_a_late_delivery_of_a_reaped_run_does_nothing(self, demo_target):
        run = _run(demo_target, status=Status.RUNNING, minutes_ago=5)
        runs_reap(now=timezone.now())

        with pytest.raises(RunEnded):
            snapshot_collect(target_id=demo_target.id, run_id=run.id)

        assert not Snapshot.objects.filter(target=demo_target).exists()
        run.refresh_from_db()
        assert run.status == Status.FAILED

    def test_a_run_whose_worker_dies_every_time_is_given_up(self, demo_target):
        run = _run(demo_target, status=Status.RUNNING, minutes_ago=1)
        CollectionRun.objects.filter(pk=run.pk).update(attempts=7)  # 3 retries + 3 redeliveries + the first

        with pytest.raises(RunEnded):
            snapshot_collect(target_id=demo_target.id, run_id=run.id)

        run.refresh_from_db()
        assert run.status == Status.FAILED and "Given up after 7 attempts" in run.error
        assert not Snapshot.objects.filter(target=demo_target).exists()


@pytest.mark.django_db
class DatabaseErrorMidRunTests:
    def test_a_postgresql_error_mid_run_is_retried_like_a_network_error(self, demo_target, monkeypatch):
        real_store = services.collection_store

        def store_then_lose_the_server(**kwargs):
            raise OperationalError("server closed the connection unexpectedly")

        monkeypatch.setattr(services, "collection_store", store_then_lose_the_server)
        with pytest.raises(CollectRetryable) as raised:
            snapshot_collect(target_id=demo_target.id)

        run = CollectionRun.objects.get(pk=raised.value.run_id)
        assert run.status == Status.QUEUED
        assert run.error == "PostgreSQL was unreachable: server closed the connection unexpectedly"

        # The retry, with the server back, completes the same run.
        monkeypatch.setattr(services, "collection_store", real_store)
        rerun = snapshot_collect(target_id=demo_target.id, run_id=run.id)
        assert rerun.id == run.id and rerun.status == Status.SUCCEEDED and rerun.attempts == 2
        assert rerun.error == ""

    def test_it_stops_retrying_after_the_bounded_retries(self, demo_target, monkeypatch):
        monkeypatch.setattr(services, "collection_store", lambda **kw: (_ for _ in ()).throw(
            OperationalError("could not connect to server")))
        run_id = None
        for _ in range(3):
            with pytest.raises(CollectRetryable) as raised:
                snapshot_collect(target_id=demo_target.id, run_id=run_id)
            run_id = raised.value.run_id

        run = snapshot_collect(target_id=demo_target.id, run_id=run_id)

        assert run.status == Status.FAILED and "PostgreSQL was unreachable" in run.error


@pytest.mark.django_db(transaction=True)
class BrokerDownTests:
    def test_collect_now_answers_at_once_and_leaves_no_queued_run(self, demo_target, admin_client, closed_broker):
        started = time.monotonic()
        response = admin_client.post("/targets/demo/collect/", HTTP_ACCEPT="application/json")
        elapsed = time.monotonic() - started

        assert response.status_code == 503
        assert "the task broker did not answer" in response.json()["error"]
        assert elapsed < 5
        assert not CollectionRun.objects.filter(status=Status.QUEUED).exists()
        run = CollectionRun.objects.get(target=demo_target)
        assert run.status == Status.FAILED and "Nothing was collected" in run.error

    def test_collect_now_without_javascript_says_so_on_the_runs_page(self, demo_target, admin_client, closed_broker):
        response = admin_client.post("/targets/demo/collect/", follow=True)

        assert response.status_code == 200
        assert "not queued" in response.content.decode()
        assert not CollectionRun.objects.filter(status=Status.QUEUED).exists()

    def test_the_scheduler_keeps_a_target_due_when_its_task_cannot_be_sent(self, demo_target, closed_broker):
        Target.objects.filter(pk=demo_target.pk).update(next_collect_at=None)

        assert services.snapshot_collect_due(now=timezone.now()) == 0

        demo_target.refresh_from_db()
        assert demo_target.next_collect_at <= timezone.now()  # due again at the next tick
        assert CollectionRun.objects.get(target=demo_target).status == Status.FAILED

    def test_run_enqueue_raises_from_the_commit(self, demo_target, closed_broker):
        with pytest.raises(BrokerUnavailable), transaction.atomic():
            run_enqueue(target=demo_target, trigger="manual")


@pytest.mark.django_db
class DatabaseChangeTests:
    def test_a_new_dbid_is_noted_on_the_run_and_kept_on_the_target(self, demo_target, collect):
        demo_target.capabilities = {"dbid": 1234}
        demo_target.save()

        run = collect(demo_target)

        demo_target.refresh_from_db()
        dbid = demo_target.capabilities["dbid"]
        assert dbid != 1234
        assert f"now has DBID {dbid} (was 1234)" in run.notes
        assert demo_target.capabilities["database_changes"][0]["from_dbid"] == 1234

    def test_the_same_dbid_notes_nothing(self, demo_target, collect):
        collect(demo_target)
        run = collect(demo_target)

        assert "Database recreated" not in run.notes
        demo_target.refresh_from_db()
        assert "database_changes" not in demo_target.capabilities


@pytest.mark.django_db
class RedeliveredRunTests:
    def test_a_redelivered_run_waits_for_the_dead_sessions_lock_instead_of_skipping(self, demo_target):
        # The first delivery died mid-statement: its run is "running" and its session still holds the
        # target's lock for a few seconds (PostgreSQL notices the dead client at its next check).
        run = _run(demo_target, status=Status.RUNNING, minutes_ago=0.1)
        with run_lock_held(demo_target.id):
            with pytest.raises(CollectRetryable):
                snapshot_collect(target_id=demo_target.id, run_id=run.id)

        run.refresh_from_db()
        assert run.status == Status.QUEUED
        assert "still held" in run.error
        # The retry, once the session is gone, collects. Its backend releases the lock when it has seen the client
        # go, which a loaded server does a moment after close() returns (the real retry comes seconds later).
        _until_lock_released(demo_target.id)
        assert snapshot_collect(target_id=demo_target.id, run_id=run.id).status == Status.SUCCEEDED

    def test_a_new_run_that_finds_another_collection_running_is_skipped(self, demo_target):
        with run_lock_held(demo_target.id):
            run = snapshot_collect(target_id=demo_target.id)

        assert run.status == Status.SKIPPED


def _until_lock_released(target_id: int, limit_s: float = 10.0) -> None:
    """Wait (at most ``limit_s``) until no session holds the target's collection lock."""
    from django.db import connection

    def released() -> bool:
        with connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND classid = %s AND objid = %s "
                           "AND granted", [LockSpace.TARGET_RUN, target_id])
            return cursor.fetchone()[0] == 0

    wait_for(released, timeout_s=limit_s, every_s=0.05, what=f"the lock of target {target_id} to be released")
