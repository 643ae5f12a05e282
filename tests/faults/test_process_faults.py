"""Faults done to the real processes of a private stack; each one must be survived without a hand.

Order matters a little (one stack for all, to stay within a few minutes): each test
leaves the stack healthy, and asserts so, before the next one starts.
"""

from __future__ import annotations

import json
import os
import signal
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager

import psycopg
import pytest

from tests.faults.conftest import Figure, record
from tests.faults.stack import PrivateStack, alive, children, wait_for

pytestmark = pytest.mark.faults

ENDED = ("succeeded", "failed", "skipped")
# How long PostgreSQL and Redis stay away: 45 s in make test (past beat's re-read, within the time budget);
# TIERSCOPE_FAULT_OUTAGE_S=360 gives the six minutes.
OUTAGE_S = int(os.environ.get("TIERSCOPE_FAULT_OUTAGE_S", "45"))

# A demo target with no history yet: its first collection reads eight days, long enough to be killed in flight.
_NEW_TARGET_AND_RUN = """
import json
from django.db import transaction
from apps.targets.models import Target, TablespaceTier
try:
    from apps.snapshots.runs import run_enqueue
except ImportError:
    from apps.snapshots.services import run_enqueue
demo = Target.objects.get(name="demo")
# Never due, from its creation: made due (next_collect_at NULL) even for a moment, beat's fan-out would queue
# a collection of its own, which the held table would stop in flight before this test's run ever started.
target, _ = Target.objects.get_or_create(name={name!r}, defaults=dict(mode=demo.mode, interval_minutes=60,
                                         tier_set=demo.tier_set, next_collect_at="2100-01-01T00:00:00Z"))
for mapping in TablespaceTier.objects.filter(target=demo):
    TablespaceTier.objects.get_or_create(target=target, tablespace_name=mapping.tablespace_name,
                                         defaults=dict(tier=mapping.tier))
Target.objects.filter(pk=target.pk).update(next_collect_at="2100-01-01T00:00:00Z")  # only this test's run
with transaction.atomic():
    run = run_enqueue(target=target, trigger="manual")
print(json.dumps({{"target_id": target.id, "run_id": run.id}}))
"""


@contextmanager
def _writes_held(stack: PrivateStack) -> Iterator[None]:
    """Hold every write to snapshots_snapshot (reads still pass), so a collection stops in the middle of its run.

    A demo collection is over in about a second; blocked on its first snapshot insert, it is certainly in
    flight when the test kills it: running, its target lock taken, its transaction open.
    """
    with psycopg.connect(stack.database_url, connect_timeout=5) as conn:
        conn.execute("LOCK TABLE snapshots_snapshot IN EXCLUSIVE MODE")
        yield
        conn.rollback()


def _blocked_writing(stack: PrivateStack, target_id: int) -> bool:
    """The session that holds this target's collection lock waits on the held snapshot table: its run, and no
    other task (a refresh's roll-up also waits on that table), is the one in flight."""
    return bool(stack.sql(
        "SELECT 1 FROM pg_locks w JOIN pg_locks a ON a.pid = w.pid WHERE w.relation = 'snapshots_snapshot'::regclass "
        "AND NOT w.granted AND a.locktype = 'advisory' AND a.granted AND a.objid::bigint = %s AND a.objsubid = 2",
        (target_id,)))


def _worker_quiet(stack: PrivateStack) -> None:
    """Nothing else for the worker's one pool child: no target due (beat's fan-out would queue a collection,
    then its refresh, whose roll-up waits on a held snapshot table too), no collection or refresh queued or
    running. A test that wants a target collected makes it due itself (_due_collected)."""
    stack.sql("UPDATE targets_target SET next_collect_at = '2100-01-01T00:00:00Z'")
    wait_for(lambda: not stack.sql(
        "SELECT 1 FROM snapshots_collectionrun WHERE status IN ('queued', 'running') UNION ALL "
        "SELECT 1 FROM tiering_refresh WHERE status IN ('queued', 'running')"),
        timeout_s=120, what="the worker to have nothing queued or running")


def _start_and_hold(stack: PrivateStack, name: str) -> dict[str, int]:
    """Start a collection of a new target and hold it in flight (running, its lock taken, blocked writing).

    The worker has one pool child: what an earlier test left queued (the refresh after its run, whose roll-up
    would wait on the held table too) is let through first, or the new run would wait behind it, queued.
    """
    ids = stack.manage(_NEW_TARGET_AND_RUN.format(name=name))
    wait_for(lambda: _run(stack, ids["run_id"])[0] == "running" and _blocked_writing(stack, ids["target_id"]),
             timeout_s=120, what=f"run {ids['run_id']} to be running and writing its snapshots")
    return ids


@contextmanager
def _in_flight(stack: PrivateStack, name: str) -> Iterator[tuple[dict[str, int], dict[str, int], int]]:
    """A quiet worker, then a collection of a new target held in flight for the block (_start_and_hold): the
    counts before it, its target and run ids, and the worker's pid."""
    _worker_quiet(stack)
    before = stack.counts()
    with _writes_held(stack):
        yield before, _start_and_hold(stack, name), stack.pid("worker")


def _run(stack: PrivateStack, run_id: int) -> tuple[str, str]:
    return stack.sql("SELECT status, error FROM snapshots_collectionrun WHERE id = %s", (run_id,))[0]


def _ended(stack: PrivateStack, run_id: int) -> tuple[str, str] | None:
    status, error = _run(stack, run_id)
    return (status, error) if status in ENDED else None




def _assert_whole(stack: PrivateStack, run_id: int, outcome: tuple[str, str], figure: Figure) -> dict[str, int]:
    status, error = outcome
    after = stack.counts()
    assert after["doubled"] == 0, after
    figure.after = after
    record(figure)
    assert status == "succeeded" or (status == "failed" and error.strip()), outcome
    return after


def _away_and_back(stack: PrivateStack, server: str, *, stop, healthy_s: float) -> Figure:
    """Stop a server for OUTAGE_S while everything runs, start it again as make run does; the figure: counts
    before and after, seconds until /healthz answered 200 again, what was restarted, a due target collected."""
    before = stack.counts()
    pids = {name: pid for name, (_, pid) in stack.status().items()}
    stop()
    stopped_at = time.monotonic()
    wait_for(lambda: stack.healthz()[0] == 503, timeout_s=20, what="/healthz to see the outage")
    # Not a wait: the fault itself is an outage of OUTAGE_S, held for that long whatever else happens.
    time.sleep(max(0.0, OUTAGE_S - (time.monotonic() - stopped_at)))
    stack.sh("services")  # as make run does: the server started again on its port (Redis from its AOF)
    back_at = time.monotonic()
    wait_for(stack.healthy, timeout_s=healthy_s, what=f"/healthz 200 after {server} came back")
    recovered_s = time.monotonic() - back_at
    restarted = sorted(name for name, (_, pid) in stack.status().items() if pid != pids[name])
    collected_s = _due_collected(stack, timeout_s=healthy_s)
    after = stack.counts()
    assert after["doubled"] == 0
    text = (f"/healthz 200 {recovered_s:.1f} s after {server} was back; programs restarted by supervisord: "
            f"{', '.join(restarted) or 'none (all rode it out)'}; due target collected {collected_s:.0f} s after it "
            "was made due")
    return Figure(f"{server} away {OUTAGE_S} s", before, after, recovered_s, "all back, due target collected", [text])


def _healthy_again(stack: PrivateStack, timeout_s: float = 120) -> None:
    wait_for(stack.healthy, timeout_s=timeout_s, what="/healthz 200")
    assert {state for state, _ in stack.status().values()} == {"RUNNING"}


def _due_collected(stack: PrivateStack, *, timeout_s: float) -> float:
    """Make the demo target due (as an operator would, in SQL); seconds until beat's fan-out got it collected."""
    stack.sql("UPDATE targets_target SET next_collect_at = now() - interval '1 minute' WHERE name = 'demo'")
    since = stack.sql("SELECT now()")[0][0]
    started = time.monotonic()
    wait_for(lambda: stack.sql(
        "SELECT 1 FROM snapshots_collectionrun r JOIN targets_target t ON t.id = r.target_id "
        "WHERE t.name = 'demo' AND r.queued_at >= %s AND r.status = 'succeeded'", (since,)),
        timeout_s=timeout_s, what="beat to have the due demo target collected")
    return time.monotonic() - started


def _run_args(ids: dict[str, int]) -> str:
    return f"({ids['target_id']}, {ids['run_id']})"  # the task's argsrepr header


def _queued(client, ids: dict[str, int]) -> bool:
    """The run's collection task is in the queue (Celery's message headers name the task and its arguments)."""
    for raw in client.lrange("celery", 0, -1):
        headers = json.loads(raw).get("headers") or {}
        if headers.get("task") == "apps.snapshots.tasks.snapshot_collect" and headers.get("argsrepr") == _run_args(ids):
            return True
    return False


def _in_append_only_file(stack: PrivateStack, ids: dict[str, int]) -> bool:
    needle = _run_args(ids).encode()
    return any(needle in path.read_bytes() for path in (stack.data_dir / "redis").rglob("*.aof"))


class ProcessFaultTests:
    def test_web_killed_comes_back_without_orphans_and_logs_requests(self, stack):
        _healthy_again(stack)
        master = stack.pid("web")
        workers = children(master)
        assert workers

        # Django's request log reaches .data/log/web.log (under the old --daemon it went nowhere).
        try:
            urllib.request.urlopen(f"http://{stack.web_bind}/no-such-page-faults", timeout=5)
        except urllib.error.HTTPError:
            pass
        wait_for(lambda: "Not Found: /no-such-page-faults" in (stack.data_dir / "log" / "web.log").read_text(),
                 timeout_s=10, what="the 404 warning in web.log")

        before = stack.counts()
        os.kill(master, signal.SIGKILL)
        started = time.monotonic()
        wait_for(lambda: stack.running_again("web", master), timeout_s=60, what="web restarted")
        _healthy_again(stack, timeout_s=60)
        recovered_s = time.monotonic() - started

        # Its workers went with it (they would hold the port and answer with a dead master).
        wait_for(lambda: not any(alive(pid) for pid in workers), timeout_s=10, what="the old gunicorn workers to exit")
        record(Figure("web master SIGKILL", before, stack.counts(), recovered_s, "back, /healthz 200, no orphans"))

    def test_worker_pool_child_killed_mid_collection(self, stack):
        with _in_flight(stack, "fault-pool-child") as (before, ids, worker):
            pool = children(worker)
            assert len(pool) == 1
            os.kill(pool[0], signal.SIGKILL)
            killed_at = time.monotonic()
            wait_for(lambda: not alive(pool[0]), timeout_s=10, what="the pool child to die")

        outcome = wait_for(lambda: _ended(stack, ids["run_id"]), timeout_s=180, what="the killed run to end")
        recovered_s = time.monotonic() - killed_at
        assert stack.pid("worker") == worker  # the main process replaced its child itself
        # Given back at once (reject_on_worker_lost) and completed by the next child: nothing lost.
        assert outcome[0] == "succeeded", outcome
        _healthy_again(stack)
        _assert_whole(stack, ids["run_id"], outcome, Figure(
            "worker pool child SIGKILL mid-collection", before, {}, recovered_s, f"run {outcome[0]}",
            [f"run ended {recovered_s:.0f} s after the kill: {outcome[1] or 'no error'}"]))

    def test_whole_worker_killed_mid_collection(self, stack):
        with _in_flight(stack, "fault-worker") as (before, ids, worker):
            os.killpg(worker, signal.SIGKILL)  # supervisord starts each program as its own process group
            killed_at = time.monotonic()
            wait_for(lambda: not alive(worker), timeout_s=10, what="the worker to die")

        wait_for(lambda: stack.running_again("worker", worker), timeout_s=60, what="worker restarted")
        restarted_s = time.monotonic() - killed_at
        # Redelivery of the message waits for the visibility timeout; the reaper ends the run before that.
        outcome = wait_for(lambda: _ended(stack, ids["run_id"]), timeout_s=240, what="the killed run to end")
        recovered_s = time.monotonic() - killed_at
        # The reaper failed it with a message and made the target due: the next run collects what was lost.
        assert outcome[0] == "failed" and "stopped before it finished" in outcome[1], outcome
        wait_for(lambda: stack.sql("SELECT 1 FROM snapshots_collectionrun WHERE target_id = %s AND id > %s "
                                   "AND status = 'succeeded'", (ids["target_id"], ids["run_id"])),
                 timeout_s=120, what="the target, made due again, to be collected")
        collected_s = time.monotonic() - killed_at
        _healthy_again(stack)
        _assert_whole(stack, ids["run_id"], outcome, Figure(
            "whole worker SIGKILL mid-collection", before, {}, recovered_s, f"run {outcome[0]}",
            [f"worker RUNNING again after {restarted_s:.1f} s; run failed by the reaper {recovered_s:.0f} s after "
             f"the kill ({outcome[1]}); the target collected again {collected_s:.0f} s after the kill"]))

    def test_beat_killed_comes_back_and_collects_a_due_target(self, stack):
        before = stack.counts()
        beat = stack.pid("beat")
        os.kill(beat, signal.SIGKILL)
        killed_at = time.monotonic()
        wait_for(lambda: stack.running_again("beat", beat), timeout_s=60, what="beat restarted")
        restarted_s = time.monotonic() - killed_at

        collected_s = _due_collected(stack, timeout_s=120)
        _healthy_again(stack)
        after = stack.counts()
        assert after["doubled"] == 0
        record(Figure("beat SIGKILL", before, after, restarted_s, "due target collected",
                      [f"beat RUNNING again after {restarted_s:.1f} s; the due target collected {collected_s:.0f} s "
                       "after it was made due"]))

    def test_postgresql_stopped_past_beats_schedule_reread(self, stack):
        # OUTAGE_S: past beat's forced re-read (20 s here) and two fan-outs.
        figure = _away_and_back(stack, "PostgreSQL", stop=lambda: stack.pg_ctl("stop"), healthy_s=120)
        # Beat rode it out: the outage and its end are in its log (it reads the database at its next tick).
        beat_log = stack.data_dir / "log" / "beat.log"
        wait_for(lambda: "beat: database recovered after" in beat_log.read_text(), timeout_s=30,
                 what="beat to log that the database is back")
        assert "beat: database unavailable" in beat_log.read_text()
        figure.fault = f"PostgreSQL stopped {OUTAGE_S} s (past beat's re-read)"
        record(figure)

    def test_redis_killed_with_a_message_queued(self, stack):
        stack.sh("ctl", "stop", "worker")  # nobody takes the message: it waits in Redis
        before = stack.counts()
        client = stack.redis()
        ids = stack.manage(_NEW_TARGET_AND_RUN.format(name="fault-redis"))
        # Beat keeps sending its periodic tasks to the same queue: the run's own message is looked for.
        assert _queued(client, ids)
        # Written to the append-only file (appendfsync everysec): a killed Redis leaves it in the page cache.
        wait_for(lambda: _in_append_only_file(stack, ids), timeout_s=20, what="the message in Redis's append-only file")
        stack.kill_redis()
        killed_at = time.monotonic()
        stack.sh("services")  # Redis started again, from its append-only file
        wait_for(lambda: _queued(client, ids), timeout_s=20, what="the queued message after Redis restarted")
        stack.sh("ctl", "start", "worker")

        outcome = wait_for(lambda: _ended(stack, ids["run_id"]), timeout_s=120, what="the queued run to end")
        recovered_s = time.monotonic() - killed_at
        assert outcome[0] == "succeeded", outcome
        _healthy_again(stack)
        _assert_whole(stack, ids["run_id"], outcome, Figure(
            "Redis SIGKILL with a message queued", before, {}, recovered_s, "message kept (AOF), run succeeded"))

    def test_redis_away_while_everything_runs(self, stack):
        # Worker and beat reconnect by themselves (or supervisord restarts them); /healthz sees fresh heartbeats.
        figure = _away_and_back(stack, "Redis", stop=stack.kill_redis, healthy_s=180)
        figure.fault = f"Redis away {OUTAGE_S} s while worker and beat run"
        record(figure)
