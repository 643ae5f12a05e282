"""The fault suite's private stack (one per session) and the figures it writes for docs/reliability.md (`make docs`)."""

from __future__ import annotations

import datetime as dt
import fcntl
import os
import shutil
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.faults.stack import ADMIN_PASSWORD, ROOT, PrivateStack, wait_for

DATA_DIR = ROOT / ".data" / "faults"
REPORTS_DIR = Path(os.environ.get("TIERSCOPE_STACK_DATA", ROOT / ".data")) / "reports"
# A run made by hand with: make faults (or the pytest line in docs/reliability.md).
COMMAND = "make faults   (or: scripts/dev/stack.sh test -m faults tests/faults)"
# Outages longer than make test's 45 s (TIERSCOPE_FAULT_OUTAGE_S, a run made by hand) report beside it.
_OUTAGE_S = os.environ.get("TIERSCOPE_FAULT_OUTAGE_S", "45")
REPORT = "reliability.md" if _OUTAGE_S == "45" else f"reliability-outage-{_OUTAGE_S}s.md"
if _OUTAGE_S != "45":
    COMMAND = f"TIERSCOPE_FAULT_OUTAGE_S={_OUTAGE_S} {COMMAND}"


@dataclass
class Figure:
    fault: str
    before: dict[str, int]
    after: dict[str, int]
    recovered_s: float
    outcome: str
    notes: list[str] = field(default_factory=list)


FIGURES: list[Figure] = []


def record(figure: Figure) -> None:
    FIGURES.append(figure)


@pytest.fixture(scope="session")
def stack() -> Iterator[PrivateStack]:
    """A whole stack (PostgreSQL, Redis, supervisord with web, worker, beat) on private ports, demo target in.

    Made fast on purpose: beat re-reads its schedule every 20 s (instead of 5 min) so a short outage
    spans a re-read, and the fan-out and reaper run every 10 s (instead of 60 s).
    """
    lock = open("/tmp/tierscope-faults.lock", "w")
    fcntl.flock(lock, fcntl.LOCK_EX)  # one fault stack per machine: two test runs wait for each other
    private = PrivateStack(DATA_DIR, extra_env={
        "TIERSCOPE_BEAT_RESYNC_S": "20",
        "WORKER_CONCURRENCY": "1",  # one pool child: the one a test kills is the one running the collection
        "WEB_CONCURRENCY": "2",
        "TIERSCOPE_PG_SHARED_BUFFERS": "128MB",
        "TIERSCOPE_ADMIN_PASSWORD": ADMIN_PASSWORD,
        # A hung target gives up in seconds, not minutes: 2 s connect limit, retries 2, 4 and 8 s apart.
        "TIERSCOPE_ORACLE_CONNECT_TIMEOUT_S": "2",
        "TIERSCOPE_COLLECT_RETRY_BACKOFF_S": "2",
    })
    started = time.monotonic()
    try:
        private.sh("stop", timeout_s=180)  # an earlier run that died before its teardown
        shutil.rmtree(DATA_DIR, ignore_errors=True)
        private.sh("services")
        private.sh("prepare")
        _every_10_s(private, "collect-due-targets", "reap-stuck-runs")
        private.sh("start", timeout_s=240)
        # The demo target's first collection (eight days of history) is beat's to do: wait for it.
        wait_for(lambda: private.sql("SELECT 1 FROM snapshots_collectionrun r JOIN targets_target t "
                                     "ON t.id = r.target_id WHERE t.name = 'demo' AND r.status = 'succeeded'"),
                 timeout_s=180, what="the demo target's first collection")
        private.setup_s = time.monotonic() - started
        yield private
    finally:
        private.sh("stop", timeout_s=240)
        _write_report(private)
        fcntl.flock(lock, fcntl.LOCK_UN)
        lock.close()


def _every_10_s(private: PrivateStack, *names: str) -> None:
    private.sql("INSERT INTO django_celery_beat_intervalschedule (every, period) SELECT 10, 'seconds' "
                "WHERE NOT EXISTS (SELECT 1 FROM django_celery_beat_intervalschedule WHERE every = 10 "
                "AND period = 'seconds')")
    private.sql("UPDATE django_celery_beat_periodictask SET interval_id = (SELECT id FROM "
                "django_celery_beat_intervalschedule WHERE every = 10 AND period = 'seconds') WHERE name = ANY(%s)",
                (list(names),))


def _write_report(private: PrivateStack) -> None:
    if not FIGURES:
        return
    lines = [
        "# Reliability: the process-fault suite",
        "",
        "Written by tests/faults/ at the end of each run; do not edit by hand.",
        "Each fault is done to a private whole stack (scripts/dev/stack.sh: PostgreSQL, Redis, and web,",
        "worker and beat under supervisord) with the demo target, on ports 55532/56479/8100.",
        "",
        f"- date: {dt.datetime.now(dt.timezone.utc):%Y-%m-%d %H:%M} UTC",
        f"- command: `{COMMAND}`",
        f"- stack set-up (initdb, migrate, start, the demo's first collection): "
        f"{getattr(private, 'setup_s', 0):.0f} s",
        "- stack settings for speed: beat's forced schedule re-read every 20 s (TIERSCOPE_BEAT_RESYNC_S),",
        "  fan-out and reaper every 10 s, one worker pool child, Oracle connect limit 2 s and retries 2, 4, 8 s",
        "  apart (TIERSCOPE_ORACLE_CONNECT_TIMEOUT_S, TIERSCOPE_COLLECT_RETRY_BACKOFF_S)",
        "",
        "| fault | runs before → after | snapshots before → after | doubled snapshots | recovered in | outcome |",
        "|---|---|---|---|---|---|",
    ]
    for f in FIGURES:
        lines.append(f"| {f.fault} | {f.before['runs']} → {f.after['runs']} | {f.before['snapshots']} → "
                     f"{f.after['snapshots']} | {f.after['doubled']} | {f.recovered_s:.1f} s | {f.outcome} |")
    notes = [f"- {f.fault}: {note}" for f in FIGURES for note in f.notes]
    if notes:
        lines += ["", "Notes:", "", *notes]
    # Under .data/ (ignored): `make docs` publishes it as docs/reliability.md when a person decides to.
    REPORTS_DIR.mkdir(parents=True, exist_ok=True)
    (REPORTS_DIR / REPORT).write_text("\n".join(lines) + "\n")
