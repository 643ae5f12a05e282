"""A private whole stack (scripts/dev/stack.sh) for the fault suite, beside the developers' one.

Its own data dir, ports and processes: PostgreSQL on 55532, Redis on 56479, web
on 127.0.0.1:8100. Nothing here ever talks to the shared servers (55432, 56379,
8000): the environment given to stack.sh and to every client is built from the
private ports only.
"""

from __future__ import annotations

import glob
import json
import os
import signal
import subprocess
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psycopg
import redis

from tests import waiting

ROOT = Path(__file__).resolve().parents[2]
STACK = ROOT / "scripts" / "dev" / "stack.sh"
PY = ROOT / ".venv" / "bin" / "python"
SHARED_PORTS = {55432, 56379, 8000}
ADMIN_PASSWORD = "faults-admin-1"  # of the stack's admin, "admin" (TIERSCOPE_ADMIN_PASSWORD)


def wait_for(predicate: Callable[[], Any], *, timeout_s: float, what: str, every_s: float = 0.5) -> Any:
    """Poll until predicate() is truthy; its value, or AssertionError after timeout_s. A service the test
    stopped on purpose (PostgreSQL, Redis, the web) being away counts as "not yet"."""
    return waiting.wait_for(predicate, timeout_s=timeout_s, what=what, every_s=every_s,
                            ignoring=(psycopg.Error, redis.RedisError, OSError))


@dataclass
class PrivateStack:
    data_dir: Path
    pg_port: int = 55532
    redis_port: int = 56479
    web_bind: str = "127.0.0.1:8100"
    extra_env: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        ports = {self.pg_port, self.redis_port, int(self.web_bind.rsplit(":", 1)[1])}
        assert not ports & SHARED_PORTS, f"the fault stack must not use the shared ports {SHARED_PORTS}"

    @property
    def database_url(self) -> str:
        return f"postgres://tierscope:tierscope@127.0.0.1:{self.pg_port}/tierscope"

    @property
    def redis_url(self) -> str:
        return f"redis://127.0.0.1:{self.redis_port}/0"

    def env(self) -> dict[str, str]:
        # The test process's own DATABASE_URL/settings must not leak into the stack, nor its STATIC_ROOT: the
        # stack's collectstatic would rewrite the files the tests beside it read.
        inherited = {k: v for k, v in os.environ.items()
                     if not k.startswith(("DJANGO_", "DATABASE_", "REDIS_", "CELERY_", "TEST_DB", "TIERSCOPE_",
                                          "STATIC_ROOT"))}
        return {
            **inherited,
            "TIERSCOPE_DATA_DIR": str(self.data_dir),
            "TIERSCOPE_PG_PORT": str(self.pg_port),
            "TIERSCOPE_REDIS_PORT": str(self.redis_port),
            "TIERSCOPE_WEB_BIND": self.web_bind,
            "DATABASE_URL": self.database_url,
            "REDIS_URL": self.redis_url,
            "DJANGO_SETTINGS_MODULE": "config.settings.local",
            **self.extra_env,
        }

    # -- the stack as an operator drives it

    def sh(self, *args: str, timeout_s: float = 300) -> str:
        done = subprocess.run([str(STACK), *args], cwd=ROOT, env=self.env(), capture_output=True, text=True,
                              timeout=timeout_s)
        if done.returncode != 0 and args[0] != "ctl":  # supervisorctl status exits 3 when one is not RUNNING
            raise AssertionError(f"stack.sh {' '.join(args)} failed ({done.returncode}):\n{done.stdout}\n{done.stderr}")
        return done.stdout

    def manage(self, code: str, timeout_s: float = 90) -> Any:
        """Run Python in `manage.py shell` against the private stack; the JSON it prints last."""
        done = subprocess.run([str(PY), "manage.py", "shell", "-c", code], cwd=ROOT, env=self.env(),
                              capture_output=True, text=True, timeout=timeout_s)
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout.strip().splitlines()[-1])

    def status(self) -> dict[str, tuple[str, int | None]]:
        """supervisorctl status: program -> (state, pid)."""
        states = {}
        for line in self.sh("ctl", "status", timeout_s=40).splitlines():
            parts = line.split()
            if len(parts) >= 2:
                pid = int(parts[3].rstrip(",")) if len(parts) > 3 and parts[2] == "pid" else None
                states[parts[0]] = (parts[1], pid)
        return states

    def pid(self, program: str) -> int | None:
        state, pid = self.status().get(program, ("MISSING", None))
        return pid if state == "RUNNING" else None

    def running_again(self, program: str, old_pid: int) -> int | None:
        pid = self.pid(program)
        return pid if pid and pid != old_pid else None

    def healthz(self) -> tuple[int, dict[str, Any]]:
        try:
            with urllib.request.urlopen(f"http://{self.web_bind}/healthz", timeout=5) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as exc:
            return exc.code, json.loads(exc.read() or b"{}")

    def healthy(self) -> bool:
        try:
            return self.healthz()[0] == 200
        except (OSError, ValueError):
            return False

    # -- direct access to the private servers

    def sql(self, query: str, params: tuple = ()) -> list[tuple]:
        with psycopg.connect(self.database_url, autocommit=True, connect_timeout=5) as conn:
            cursor = conn.execute(query, params)
            return cursor.fetchall() if cursor.description else []

    def redis(self) -> redis.Redis:
        return redis.Redis.from_url(self.redis_url, socket_connect_timeout=2, socket_timeout=5)

    def pg_ctl(self, action: str) -> None:
        pg_bin = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"))[-1]
        command = [pg_bin, "-D", str(self.data_dir / "pg"), "-m", "fast", "-w", "-t", "60", action]
        if os.geteuid() == 0:
            command = ["runuser", "-u", "postgres", "--", *command]
        subprocess.run(command, check=True, capture_output=True, timeout=90)

    def kill_redis(self) -> None:
        os.kill(int((self.data_dir / "run" / "redis.pid").read_text()), signal.SIGKILL)

    # -- figures

    def counts(self) -> dict[str, int]:
        runs, snapshots, doubled = self.sql(
            "SELECT (SELECT count(*) FROM snapshots_collectionrun), (SELECT count(*) FROM snapshots_snapshot), "
            "(SELECT count(*) - count(DISTINCT (target_id, dbid, instance_number, snap_id)) FROM snapshots_snapshot)"
        )[0]
        return {"runs": runs, "snapshots": snapshots, "doubled": doubled}


def children(pid: int) -> list[int]:
    found = []
    for task in glob.glob(f"/proc/{pid}/task/*/children"):
        found += [int(child) for child in Path(task).read_text().split()]
    return found


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return Path(f"/proc/{pid}").exists() and "Z" not in Path(f"/proc/{pid}/stat").read_text().split()[2]



