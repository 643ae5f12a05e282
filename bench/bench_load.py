"""The HTTP load test of `make bench`: gunicorn on loopback (a port of its own) against the bench database, 50
logged-in locust users (bench/locustfile.py) for 60 s with 1 s think time over the fleet, target, segment,
recommendations and search pages of the fleet's targets, optionally with a slow CSV export of the largest target
running all along (what must not stall the others). p95 and errors come from locust's CSV stats.

    bench/run.py --only load        (BENCH_LOAD_SECONDS=60: seconds per configuration)

runs it once for each gunicorn configuration of CONFIGS, with the slow export running. Before the users start,
every browsed target without current recommendations gets them (a refresh), so that the pages show what a
priced fleet shows rather than their cheap "not computed yet" state.
"""

from __future__ import annotations

import csv
import http.client
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
USERS, SPAWN_RATE, SECONDS = 50, 10, 60


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _fleet_priced() -> list[str]:
    """Refreshes the recommendations of every browsed target that has no current run (the fleet is generated
    without them, and a run may have been deleted since), so that the pages show what a priced fleet shows
    instead of their cheap "not computed yet" state. The targets refreshed."""
    from django.utils import timezone

    from apps.tiering.models import RecommendationRun
    from apps.tiering.recommendations.services import recommendation_refresh

    priced = set(RecommendationRun.objects.filter(state=RecommendationRun.State.CURRENT).values_list("target_id",
                                                                                                     flat=True))
    refreshed = []
    for target in _browsed_targets():
        if target.id not in priced:
            print(f"  {target.name}: no current recommendations, refreshing ...", flush=True)
            recommendation_refresh(target_id=target.id, now=timezone.now())
            refreshed.append(target.name)
    return refreshed


def _browsed_targets():
    from apps.targets.models import Target

    return Target.objects.filter(name__startswith="bench-").exclude(name__startswith="bench-retention").order_by("name")


def _plan(path: Path) -> dict:
    """50 users with their sessions, and the targets (with some segment ids each) the users browse."""
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.test import Client
    from django.urls import Resolver404, resolve

    from apps.snapshots.models import Segment

    sessions = []
    for n in range(USERS):
        user, _ = get_user_model().objects.get_or_create(username=f"bench-load-{n:02d}")
        client = Client()
        client.force_login(user)
        sessions.append(client.cookies[settings.SESSION_COOKIE_NAME].value)
    targets = []
    for target in _browsed_targets():
        ids = list(Segment.objects.filter(target=target).order_by("?").values_list("id", flat=True)[:50])
        if ids:
            targets.append({"name": target.name, "segments": ids})
    try:
        resolve("/search/")
        search = True
    except Resolver404:
        search = False
    plan = {"cookie_name": settings.SESSION_COOKIE_NAME, "sessions": sessions, "targets": targets, "search": search,
            "refreshed": _fleet_priced(),
            "search_terms": ["T00001", "IX0002", "APP01", "DATA03", "LOB"]}
    path.write_text(json.dumps(plan))
    return plan


def _wait_up(url: str, deadline_s: float = 60.0) -> None:
    end = time.monotonic() + deadline_s
    while time.monotonic() < end:
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except OSError:
            time.sleep(0.2)
    raise SystemExit(f"bench: gunicorn did not answer {url} within {deadline_s:.0f} s")


def _slow_export(base: str, session: str, cookie: str, target: str, stop: threading.Event, done: list,
                 failed: list) -> None:
    """The largest target's recommendations CSV, downloaded again and again until ``stop``: the seconds of each
    whole download in ``done``, each download cut off in ``failed``."""
    while not stop.is_set():
        request = urllib.request.Request(f"{base}/targets/{target}/recommendations/?format=csv",
                                         headers={"Cookie": f"{cookie}={session}"})
        started = time.perf_counter()
        try:
            with urllib.request.urlopen(request, timeout=600) as response:
                while response.read(1 << 16):
                    if stop.is_set():
                        break
        except (OSError, http.client.HTTPException) as exc:
            if stop.is_set():  # gunicorn stopped under the download at the end of the run
                return
            # Cut off mid-way (a sync worker killed by gunicorn's timeout): counted, and the next one started.
            failed.append(f"after {time.perf_counter() - started:.0f} s: {type(exc).__name__}: {exc}"[:200])
            continue
        done.append(time.perf_counter() - started)


#: (worker class, workers, threads) compared under load with a slow export running; the first is the one
#: scripts/dev/supervisord.conf, deploy/ and docker-compose.yml run (docs/performance.md says why).
CONFIGS = (("gthread", 3, 4), ("sync", 3, 1))


def bench_load_compare(large_target: str, seconds: int = SECONDS) -> dict:
    """The load test for each of CONFIGS with a slow export running; the first config's figures on top."""
    runs = {}
    for worker_class, workers, threads in CONFIGS:
        label = f"{worker_class} {workers}x{threads}"
        print(f"  load, {label}, slow export running ...", flush=True)
        runs[label] = bench_load(workers=workers, worker_class=worker_class, threads=threads, slow_export=True,
                                 seconds=seconds, large_target=large_target)
    chosen = runs[next(iter(runs))]
    return {"load_p95_ms": chosen["load_p95_ms"], "load_errors": chosen["load_errors"], "configs": runs}


def bench_load(*, workers: int = 3, worker_class: str = "gthread", threads: int = 4, slow_export: bool = False,
               seconds: int = SECONDS, large_target: str | None = None) -> dict:
    from django.core.management import call_command

    call_command("collectstatic", interactive=False, verbosity=0)  # the pages' manifest, as make run serves them
    work = Path(tempfile.mkdtemp(prefix="bench-load-"))
    plan = _plan(work / "plan.json")
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    command = [str(ROOT / ".venv" / "bin" / "gunicorn"), "config.wsgi", "--bind", f"127.0.0.1:{port}",
               "--workers", str(workers), "--worker-class", worker_class, "--error-logfile", str(work / "gunicorn.log")]
    if worker_class == "gthread":
        # No keep-alive, as deployed: gthread closes an idle kept-alive connection after 2 s, and a client
        # reusing it at that moment gets a reset (sync workers never keep a connection alive).
        command += ["--threads", str(threads), "--keep-alive", "0"]
    server = subprocess.Popen(command, cwd=ROOT, env=os.environ.copy())
    stop, exports, exports_failed = threading.Event(), [], []
    try:
        _wait_up(f"{base}/accounts/login/")
        exporter = None
        if slow_export and large_target:
            exporter = threading.Thread(target=_slow_export, daemon=True, args=(
                base, plan["sessions"][0], plan["cookie_name"], large_target, stop, exports, exports_failed))
            exporter.start()
        done = subprocess.run(
            [sys.executable, "-m", "locust", "-f", str(ROOT / "bench" / "locustfile.py"), "--headless", "-u", str(USERS),
             "-r", str(SPAWN_RATE), "-t", f"{seconds}s", "--host", base, "--csv", str(work / "load"),
             "--only-summary", "--stop-timeout", "10"],
            cwd=ROOT, env={**os.environ, "BENCH_LOAD_PLAN": str(work / "plan.json")}, capture_output=True, text=True,
            timeout=seconds + 120)
        stop.set()
        if exporter:
            exporter.join(timeout=60)
    finally:
        stop.set()
        server.terminate()
        server.wait(timeout=30)
    stats = work / "load_stats.csv"
    if not stats.exists():
        raise SystemExit(f"bench: locust wrote no stats (exit {done.returncode}):\n{done.stderr[-2000:]}")
    rows = {row["Name"]: row for row in csv.DictReader(stats.open())}
    total = rows["Aggregated"]

    def p95(row: dict) -> float | None:
        return float(row["95%"]) if row.get("95%") not in (None, "", "N/A") else None

    failures_csv = work / "load_failures.csv"
    failures = [f"{row['Occurrences']} x {row['Name']}: {row['Error']}"
                for row in csv.DictReader(failures_csv.open())] if failures_csv.exists() else []
    return {
        "load_p95_ms": p95(total), "load_errors": int(total["Failure Count"]), "failures": failures,
        "requests": int(total["Request Count"]), "users": USERS, "seconds": seconds,
        "pages_p95_ms": {name: p95(row) for name, row in rows.items() if name != "Aggregated"},
        "gunicorn": {"workers": workers, "worker_class": worker_class,
                     "threads": threads if worker_class == "gthread" else 1},
        "slow_export_running": bool(slow_export and large_target), "slow_exports_done": len(exports),
        "slow_exports_cut_off": exports_failed,
        "search": "measured" if plan["search"] else "skipped: no /search/ page on this build",
        "targets": len(plan["targets"]), "refreshed_before": plan["refreshed"],
    }
