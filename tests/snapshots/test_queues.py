"""Queues per target group with real workers: a group's targets are collected only by its own worker, and with
that worker gone the other targets still collect while the group's runs wait and /healthz names the queue."""

from __future__ import annotations

import os
import subprocess
import uuid
from collections.abc import Iterator

import pytest
from django.db import transaction

from apps.snapshots.models import CollectionRun
from apps.targets.models import Target
from tests.waiting import wait_for
from tests.workers import worker_process, worker_stop

ENDED = ("succeeded", "failed", "skipped")


def _worker_start(*, queue: str, default_queue: str) -> subprocess.Popen:
    """A real worker consuming ``queue`` only (standing in for another machine), in its own process group."""
    from config.celery import app

    proc = worker_process(queue, default_queue=default_queue, log_level="WARNING",
                          env={"TIERSCOPE_HEARTBEAT_EVERY_S": "1"})
    node = f"{queue}@{os.uname().nodename}"
    wait_for(lambda: proc.poll() is not None or app.control.ping(destination=[node], timeout=0.5),
             timeout_s=60, what=f"worker {node} to answer a ping")
    assert proc.poll() is None, f"worker {node} exited with {proc.returncode}"
    return proc


@pytest.fixture
def two_workers(settings) -> Iterator[dict[str, object]]:
    """A worker on the default queue and one on a group's queue, as on two machines."""
    from config.celery import app

    suffix = uuid.uuid4().hex[:6]
    default_queue, group_queue = f"test-{suffix}", f"group-b-{suffix}"
    settings.TIERSCOPE_HEARTBEAT_STALE_S = 5  # a dead group worker shows on /healthz within seconds
    previous = app.conf.task_default_queue, app.conf.task_always_eager
    app.conf.task_default_queue, app.conf.task_always_eager = default_queue, False
    procs = []
    try:
        procs.append(_worker_start(queue=default_queue, default_queue=default_queue))
        procs.append(_worker_start(queue=group_queue, default_queue=default_queue))
        yield {"default": default_queue, "group": group_queue, "default_proc": procs[0], "group_proc": procs[1]}
    finally:
        app.conf.task_default_queue, app.conf.task_always_eager = previous
        for proc in procs:
            worker_stop(proc, timeout_s=30)
        app.connection_for_write().default_channel.queue_purge(group_queue)


def _enqueue(target: Target) -> CollectionRun:
    from apps.snapshots.runs import run_enqueue

    with transaction.atomic():
        return run_enqueue(target=target, trigger="manual")


def _ended(run: CollectionRun) -> CollectionRun | None:
    run.refresh_from_db()
    return run if run.status in ENDED else None


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
class QueuesPerGroupTests:
    def test_a_groups_targets_are_collected_by_its_worker_only_and_wait_when_it_is_gone(
            self, demo_target, two_workers, client):
        group = two_workers["group"]
        other = Target.objects.create(name="demo-b", mode=Target.Mode.DEMO, demo_seed=7, collect_queue=group)
        node = os.uname().nodename

        runs = [_enqueue(demo_target), _enqueue(other)]
        for run in runs:
            wait_for(lambda run=run: _ended(run), timeout_s=240, what=f"run {run.id} to end")
        default_run, group_run = runs
        assert default_run.status == group_run.status == "succeeded", (default_run.error, group_run.error)
        assert default_run.worker == f"{two_workers['default']}@{node}"
        assert group_run.worker == f"{group}@{node}" and group_run.queue == group

        assert client.get("/healthz").json()["queues"]["queues"][group]["ok"] is True  # its worker's heartbeat
        worker_stop(two_workers["group_proc"], timeout_s=30)  # the group's machine goes away
        wait_for(lambda: client.get("/healthz").json()["queues"]["queues"][group]["ok"] is False,
                 timeout_s=60, what=f"/healthz to see no worker on {group}")
        waiting, collected = _enqueue(other), _enqueue(demo_target)

        wait_for(lambda: _ended(collected), timeout_s=240, what="the default-queue run to end")
        assert collected.status == "succeeded", collected.error
        waiting.refresh_from_db()
        assert waiting.status == "queued" and waiting.worker == ""
        body = client.get("/healthz").json()
        assert body["status"] == "unavailable"
        assert body["queues"]["queues"][group]["waiting_runs"] == 1
        assert f"waiting on queue {group}, no worker consuming it" in body["queues"]["queues"][group]["detail"]
