"""/healthz names a group's queue that no worker consumes, with the runs waiting on it; the replica is reported
without ever making it 503."""

from __future__ import annotations

import datetime as dt

import pytest
import redis
from django.utils import timezone

from apps.core.heartbeat import heartbeat_key, heartbeat_write, queue_process
from apps.snapshots.models import CollectionRun


@pytest.fixture
def heartbeats(settings):
    for process in ("worker", "beat"):
        heartbeat_write(process=process)
    client = redis.Redis.from_url(settings.REDIS_URL)
    client.delete(heartbeat_key(queue_process("group-b")))
    yield client
    client.delete(heartbeat_key("worker"), heartbeat_key("beat"), heartbeat_key(queue_process("group-b")))


@pytest.mark.django_db
class HealthzQueuesTests:
    def test_a_group_queue_without_a_worker_is_named_with_its_waiting_runs(self, client, demo_target, heartbeats):
        demo_target.collect_queue = "group-b"
        demo_target.save()
        CollectionRun.objects.create(target=demo_target, queue="group-b", queued_at=timezone.now())

        response = client.get("/healthz")

        assert response.status_code == 503
        entry = response.json()["queues"]["queues"]["group-b"]
        assert entry["ok"] is False and entry["waiting_runs"] == 1
        assert "1 run(s) waiting on queue group-b, no worker consuming it" in entry["detail"]

    def test_a_group_queue_with_a_fresh_worker_heartbeat_is_ok(self, client, demo_target, heartbeats):
        demo_target.collect_queue = "group-b"
        demo_target.save()
        heartbeat_write(process=queue_process("group-b"))

        response = client.get("/healthz")

        assert response.status_code == 200, response.json()
        assert response.json()["queues"]["queues"]["group-b"]["ok"] is True

    def test_without_a_replica_it_says_not_configured_and_stays_200(self, client, heartbeats):
        response = client.get("/healthz")

        assert response.status_code == 200
        assert response.json()["replica"]["state"] == "not configured"
        assert response.json()["replica"]["lag_s"] is None


@pytest.mark.django_db
class QueuedReapTests:
    def test_a_run_queued_on_a_queue_no_worker_consumes_is_failed_saying_so(self, demo_target, heartbeats):
        from apps.snapshots.runs import runs_reap

        run = CollectionRun.objects.create(target=demo_target, queue="group-b",
                                           queued_at=timezone.now() - dt.timedelta(hours=3))

        assert runs_reap(now=timezone.now()) == [run.id]
        run.refresh_from_db()
        assert run.status == "failed"
        assert "no worker consumes queue group-b" in run.error
