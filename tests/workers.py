"""Real Celery worker processes for the worker tests: on the test database and the real Redis broker, each in a
process group of its own (so a test can kill one whole), stopped with SIGTERM and, if that is not enough, SIGKILL."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def worker_process(queue: str, *, default_queue: str, log_level: str, stdout: int = subprocess.DEVNULL,
                   env: dict[str, str] | None = None) -> subprocess.Popen:
    """A worker named ``queue``@host consuming ``queue`` only, sending what it enqueues to ``default_queue``;
    ``env`` added to its environment, its output (``log_level`` and up) to ``stdout``."""
    from django.db import connection

    db = connection.settings_dict
    return subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "config", "worker", "-Q", queue, "--concurrency", "1",
         "--pool", "prefork", "-l", log_level, "--without-gossip", "--without-mingle", "--without-heartbeat",
         "-n", f"{queue}@%h"],
        cwd=ROOT, stdout=stdout, stderr=subprocess.STDOUT, text=True, start_new_session=True,
        env={
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "config.settings.local",
            "DATABASE_URL": f"postgres://{db['USER']}:{db['PASSWORD']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
            "CELERY_TASK_DEFAULT_QUEUE": default_queue,
            **(env or {}),
        },
    )


def worker_stop(proc: subprocess.Popen, *, timeout_s: float) -> None:
    """``proc``'s process group ended: SIGTERM, then SIGKILL if it has not exited within ``timeout_s``."""
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=timeout_s)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
