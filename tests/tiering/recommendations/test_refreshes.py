"""The refresh after a run is a task of its own: it fails only itself, is retried, and is never silently missing."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import OperationalError
from django.utils import timezone

from apps.snapshots.models import CollectionRun
from apps.tiering.models import Recommendation, Refresh
from apps.tiering.recommendations import refreshes


@pytest.mark.django_db
class RefreshAfterRunTests:
    def test_it_runs_once_the_collection_has_committed(self, demo_target, django_capture_on_commit_callbacks):
        from apps.snapshots.services import snapshot_collect

        with django_capture_on_commit_callbacks(execute=False) as callbacks:
            run = snapshot_collect(target_id=demo_target.id, trigger="command")
            assert not Refresh.objects.exists()  # nothing before the commit

        with django_capture_on_commit_callbacks(execute=True):  # the commit, and what it queues in turn
            for callback in callbacks:
                callback()

        refresh = Refresh.objects.get(target=demo_target)
        assert refresh.after_run_id == run.id
        assert refresh.status == Refresh.Status.SUCCEEDED
        assert refresh.recommendations == Recommendation.objects.current(target_id=demo_target.id).count() > 60

    def test_a_failed_refresh_fails_only_itself(self, demo_target, collect, monkeypatch):
        def broken(**kwargs):
            raise ValueError("tier set has no tiers priced")

        monkeypatch.setattr(refreshes, "recommendation_refresh", broken)

        run = collect(demo_target)

        run.refresh_from_db()
        demo_target.refresh_from_db()
        assert run.status == CollectionRun.Status.SUCCEEDED
        # The collection's own schedule, not pushed by the refresh's failure.
        assert demo_target.next_collect_at - run.started_at < dt.timedelta(minutes=61)
        refresh = Refresh.objects.get(target=demo_target)
        assert refresh.status == Refresh.Status.FAILED
        assert refresh.error == "Internal error: ValueError: tier set has no tiers priced"
        assert refresh.attempts == 4  # the first try and the task's 3 retries

    def test_a_database_error_is_retried_and_the_refresh_completes(self, demo_target, collect, monkeypatch):
        real = refreshes.recommendation_refresh
        calls = []

        def flaky(**kwargs):
            calls.append(1)
            if len(calls) == 1:
                raise OperationalError("terminating connection due to administrator command")
            return real(**kwargs)

        monkeypatch.setattr(refreshes, "recommendation_refresh", flaky)

        collect(demo_target)

        refresh = Refresh.objects.get(target=demo_target)
        assert refresh.status == Refresh.Status.SUCCEEDED and refresh.attempts == 2
        assert Recommendation.objects.current(target_id=demo_target.id).exists()

    def test_a_queued_refresh_serves_the_runs_that_end_before_it_starts(self, demo_target):
        first = refreshes.refresh_enqueue(target_id=demo_target.id)
        second = refreshes.refresh_enqueue(target_id=demo_target.id)

        assert first.pk == second.pk
        assert Refresh.objects.count() == 1


@pytest.mark.django_db
class RefreshesReapTests:
    def test_it_queues_the_refresh_a_run_never_got(self, demo_target, collect, django_capture_on_commit_callbacks):
        from apps.snapshots.signals import run_succeeded

        run_succeeded.disconnect(dispatch_uid="tiering.refresh_after_run")  # as if the send was lost
        try:
            collect(demo_target)
        finally:
            run_succeeded.connect(refreshes.on_run_succeeded, dispatch_uid="tiering.refresh_after_run")
        assert not Refresh.objects.exists()

        with django_capture_on_commit_callbacks(execute=True):
            outcome = refreshes.refreshes_reap(now=timezone.now())

        assert outcome == {"failed": 0, "queued": 1}
        assert Refresh.objects.get().status == Refresh.Status.SUCCEEDED
        # Once served, nothing more is queued.
        assert refreshes.refreshes_reap(now=timezone.now()) == {"failed": 0, "queued": 0}

    def test_it_fails_a_refresh_left_running_by_a_dead_worker(self, demo_target):
        long_ago = timezone.now() - dt.timedelta(minutes=20)
        refresh = Refresh.objects.create(target=demo_target, status=Refresh.Status.RUNNING, queued_at=long_ago,
                                         started_at=long_ago, attempts=1)

        outcome = refreshes.refreshes_reap(now=timezone.now())

        refresh.refresh_from_db()
        assert outcome["failed"] == 1
        assert refresh.status == Refresh.Status.FAILED and "stuck or gone" in refresh.error


@pytest.mark.django_db
class RunsPageRefreshTests:
    def test_the_runs_page_shows_each_runs_refresh_and_its_error(self, demo_target, collect, monkeypatch,
                                                                admin_client):
        monkeypatch.setattr(refreshes, "recommendation_refresh",
                            lambda **kw: (_ for _ in ()).throw(ValueError("no tiers")))
        run = collect(demo_target)

        page = admin_client.get("/runs/").content.decode()
        status = admin_client.get(f"/runs/{run.id}.json").json()

        assert "Refresh: Internal error: ValueError: no tiers" in page
        assert status["refresh_status"] == "failed" and status["done"] is True
