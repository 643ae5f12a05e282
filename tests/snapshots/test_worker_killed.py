"""A worker killed mid-collection leaves no partial snapshot, and a rerun completes."""

from __future__ import annotations

import os
import signal
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager

import psycopg
import pytest
from django.db.models import Count, Sum

from apps.snapshots.models import CollectionRun, SegmentStat, Snapshot
from apps.snapshots.services import snapshot_collect
from apps.targets.models import Target
from tests.waiting import wait_for


def _per_snapshot(target: Target) -> dict[int, tuple[int, int, int]]:
    rows = (
        SegmentStat.objects.filter(snapshot__target=target)
        .values("snapshot__snap_id")
        .annotate(n=Count("segment_id"), reads=Sum("physical_read_requests"), writes=Sum("physical_write_requests"))
        .order_by()
    )
    return {r["snapshot__snap_id"]: (r["n"], r["reads"], r["writes"]) for r in rows}


@contextmanager
def _writes_held_once(target: Target, *, snapshots: int) -> Iterator[None]:
    """Once the collection has stored ``snapshots`` snapshots, hold every further write to the snapshot table
    (from another session) until the block ends: the kill inside it lands mid-collection whatever the
    machine's load, never after the collection ran to its end between a poll and the kill."""
    from django.db import connection

    wait_for(lambda: Snapshot.objects.filter(target=target).count() >= snapshots, timeout_s=120, every_s=0.05,
             what="the collection to be under way")
    settings = connection.settings_dict
    with psycopg.connect(host=settings["HOST"], port=settings["PORT"], dbname=settings["NAME"],
                         user=settings["USER"], password=settings["PASSWORD"], connect_timeout=10) as holder:
        holder.execute("LOCK TABLE snapshots_snapshot IN EXCLUSIVE MODE")  # after the snapshot in flight commits
        yield
        holder.rollback()


@pytest.fixture
def one_snapshot_per_transaction(monkeypatch):
    """The worker commits each snapshot on its own, so a kill lands between two of them."""
    monkeypatch.setenv("TIERSCOPE_COLLECT_BATCH_ROWS", "1")


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
class WorkerKilledTests:
    def test_a_killed_worker_leaves_whole_snapshots_and_a_rerun_completes(
        self, demo_target, one_snapshot_per_transaction, celery_worker
    ):
        from django.db import transaction

        from apps.snapshots.runs import run_enqueue

        with transaction.atomic():
            run = run_enqueue(target=demo_target, trigger="manual")
        # Kill the worker (parent and pool child) once some, not all, snapshots are in.
        with _writes_held_once(demo_target, snapshots=20):
            os.killpg(celery_worker.proc.pid, signal.SIGKILL)
            celery_worker.proc.wait()
        partial = _per_snapshot(demo_target)
        assert 20 <= len(partial) < 190

        # Every stored snapshot is whole: it has as many segment rows as the same hour in a clean run.
        reference = Target.objects.create(name="demo-reference", mode=Target.Mode.DEMO,
                                          demo_seed=demo_target.demo_seed)
        snapshot_collect(target_id=reference.id, trigger="command")
        clean = _per_snapshot(reference)
        for snap_id, figures in partial.items():
            assert figures == clean[snap_id], f"snapshot {snap_id} is partial"

        # The rerun completes, the dead run is marked failed, and nothing is doubled.
        rerun = snapshot_collect(target_id=demo_target.id, trigger="command")
        assert rerun.status == CollectionRun.Status.SUCCEEDED
        assert CollectionRun.objects.get(pk=run.pk).status == CollectionRun.Status.FAILED
        assert _per_snapshot(demo_target) == clean

    def test_a_killed_pool_child_gives_its_run_back_and_the_next_child_completes_it(
        self, demo_target, one_snapshot_per_transaction, celery_worker
    ):
        from django.db import transaction

        from apps.snapshots.runs import run_enqueue

        with transaction.atomic():
            run = run_enqueue(target=demo_target, trigger="manual")
        with _writes_held_once(demo_target, snapshots=20):
            children = subprocess.run(["pgrep", "-P", str(celery_worker.proc.pid)], capture_output=True, text=True,
                                      timeout=10).stdout.split()
            assert len(children) == 1, children
            os.kill(int(children[0]), signal.SIGKILL)  # the pool child only: the worker itself lives on
            wait_for(lambda: subprocess.run(["kill", "-0", children[0]], capture_output=True).returncode != 0,
                     timeout_s=10, what="the pool child to die")

        # reject_on_worker_lost: the message goes back at once, a new child takes it and completes the run.
        wait_for(lambda: CollectionRun.objects.get(pk=run.pk).status == CollectionRun.Status.SUCCEEDED,
                 timeout_s=180, what="the run to be redelivered and completed")
        run.refresh_from_db()
        # The redelivery, and one retry when the dead child's session, held on the table until the block ended,
        # still had the target's lock as the next child took the run (services.snapshot_collect waits it out).
        assert run.attempts in (2, 3)
        reference = Target.objects.create(name="demo-reference", mode=Target.Mode.DEMO,
                                          demo_seed=demo_target.demo_seed)
        snapshot_collect(target_id=reference.id, trigger="command")
        assert _per_snapshot(demo_target) == _per_snapshot(reference)  # nothing lost, nothing doubled
