"""collect_overlap for `make bench`: 200 demo targets, each collection waiting 50 ms per simulated Oracle round
trip (TIERSCOPE_DEMO_ROUNDTRIP_MS), collected by 2 real Celery worker processes started here, each with a pool of
threads so that one process overlaps the waits of several collections.

collect_overlap = the sum of the simulated waits / the wall time from queueing to the last run ended. Its ideal
is the total concurrency (processes x threads): every slot waiting all the time. CPU work (simulating and
storing the hours) runs beside the waits, so on 2 cores the figure stays below the ideal. Runs in its own
database (``..._bench_collect``): bench/run.py --only collect.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGETS, ROUNDTRIP_MS, PROCESSES, THREADS = 200, 50.0, 2, 8
HISTORY_DAYS = 1  # a first collection back-fills a day: 24 snapshots + the fixed round trips each


def bench_collect(deadline_s: float = 900.0) -> dict:
    from django.db.models import Count

    from apps.snapshots.models import CollectionRun, Snapshot
    from apps.snapshots.tasks import snapshot_collect
    from apps.targets.demo.source import FIXED_ROUND_TRIPS
    from apps.targets.models import Target
    from bench.setup_data import drop_target

    for target in Target.objects.filter(name__startswith="bench-collect-"):
        drop_target(target)
    targets = [Target.objects.create(name=f"bench-collect-{n:03d}", mode=Target.Mode.DEMO, enabled=False,
                                     demo_seed=5_000 + n, tier_set_id="seed-2009") for n in range(TARGETS)]
    env = {**os.environ, "TIERSCOPE_DEMO_ROUNDTRIP_MS": str(ROUNDTRIP_MS),
           "TIERSCOPE_HISTORY_DAYS": str(HISTORY_DAYS)}
    celery = Path(sys.executable).parent / "celery"
    log = tempfile.NamedTemporaryFile(prefix="bench-collect-workers-", suffix=".log", delete=False)  # noqa: SIM115
    print(f"  workers' log: {log.name}", file=sys.stderr, flush=True)
    workers = [subprocess.Popen([str(celery), "-A", "config", "worker", "-P", "threads", "-c", str(THREADS),
                                 "-n", f"bench-collect-{n}@%h", "-l", "WARNING", "--without-gossip",
                                 "--without-mingle"], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
               for n in range(PROCESSES)]
    try:
        started = time.perf_counter()
        for target in targets:
            snapshot_collect.delay(target.id)
        ended = {CollectionRun.Status.SUCCEEDED, CollectionRun.Status.FAILED, CollectionRun.Status.SKIPPED}
        while time.perf_counter() - started < deadline_s:
            if CollectionRun.objects.filter(target__in=targets, status__in=ended).count() == TARGETS:
                break
            time.sleep(0.2)
        else:
            raise SystemExit(f"bench: the {TARGETS} collections did not end within {deadline_s:.0f} s")
        wall_s = time.perf_counter() - started
    finally:
        for worker in workers:
            worker.terminate()
        for worker in workers:
            worker.wait(timeout=60)
    failed = CollectionRun.objects.filter(target__in=targets).exclude(status=CollectionRun.Status.SUCCEEDED).count()
    hours = Snapshot.objects.filter(target__in=targets, kind="demo").aggregate(n=Count("id"))["n"]
    trips = hours + FIXED_ROUND_TRIPS * TARGETS
    waited_s = trips * ROUNDTRIP_MS / 1000
    return {"collect_overlap": round(waited_s / wall_s, 2), "ideal": PROCESSES * THREADS,
            "simulated_wait_s": round(waited_s, 1), "wall_s": round(wall_s, 1), "round_trips": trips,
            "targets": TARGETS, "roundtrip_ms": ROUNDTRIP_MS, "processes": PROCESSES, "threads_each": THREADS,
            "runs_not_succeeded": failed}
