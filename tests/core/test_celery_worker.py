"""A real Celery worker (started by the test, not eager) runs a task through Redis and writes to PostgreSQL."""

from __future__ import annotations

import pytest

from apps.snapshots.models import CollectionRun, Snapshot
from tests.waiting import wait_for


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
class CeleryWorkerTests:
    def test_it_runs_a_collection_through_the_broker_and_writes_to_postgresql(self, demo_target, celery_worker):
        from django.db import transaction

        from apps.snapshots.runs import run_enqueue

        with transaction.atomic():
            run = run_enqueue(target=demo_target, trigger="manual")

        wait_for(lambda: CollectionRun.objects.get(pk=run.pk).status in ("succeeded", "failed"),
                 timeout_s=120, what="the worker to finish the collection")
        run.refresh_from_db()
        assert run.status == "succeeded", run.error
        assert run.task_id == "" or run.task_id  # recorded or not, the row is the worker's
        assert Snapshot.objects.filter(target=demo_target).count() == run.snapshots_added > 150
