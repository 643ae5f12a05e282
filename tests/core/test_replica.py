"""Page reads from a real hot standby of the test cluster (pg_basebackup -R, streaming replication), writes to
the primary; a lagging or stopped standby leaves the pages to the primary and /healthz says so, still 200."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.db import connections
from django.test.utils import CaptureQueriesContext

from apps.core.dbrouter import REPLICA, replica_reads
from apps.core.heartbeat import heartbeat_write
from apps.core.replica import replica_state
from apps.targets.models import Target
from tests.waiting import wait_for

PG_BIN = Path("/usr/lib/postgresql/15/bin")


def _as_postgres(*cmd: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    # PostgreSQL refuses to run as root: its tools run as the postgres user then.
    prefix = ["runuser", "-u", "postgres", "--"] if os.getuid() == 0 else []
    return subprocess.run([*prefix, *cmd], env={**os.environ, **(env or {})}, capture_output=True, text=True,
                          timeout=600, check=False)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Standby:
    def __init__(self, root: Path, port: int) -> None:
        self.root, self.port, self.data = root, port, root / "pg"

    def start(self) -> None:
        done = _as_postgres(str(PG_BIN / "pg_ctl"), "-D", str(self.data), "-l", str(self.root / "log"), "-w",
                            "-t", "120", "-o", f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.root} "
                            "-c hot_standby=on -c shared_buffers=128MB", "start")
        assert done.returncode == 0, f"standby did not start: {done.stderr}{(self.root / 'log').read_text()}"

    def stop(self) -> None:
        _as_postgres(str(PG_BIN / "pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "stop")


@pytest.fixture(scope="module")
def standby(django_db_setup, django_db_blocker) -> Iterator[Standby]:
    """A hot standby of the cluster the test database lives on, on its own loopback port."""
    with django_db_blocker.unblock():
        primary = connections["default"].settings_dict
    root = Path(tempfile.mkdtemp(prefix="tierscope-standby-"))
    if os.getuid() == 0:
        shutil.chown(root, "postgres", "postgres")
    node = Standby(root, _free_port())
    done = _as_postgres(str(PG_BIN / "pg_basebackup"), "-h", primary["HOST"], "-p", str(primary["PORT"]),
                        "-U", primary["USER"], "-D", str(node.data), "-R", "-X", "stream", "-c", "fast",
                        env={"PGPASSWORD": primary["PASSWORD"]})
    assert done.returncode == 0, f"pg_basebackup failed: {done.stderr}"
    node.start()
    # The "replica" alias pointed at the standby, as DATABASE_REPLICA_URL would; a mirror of the test database
    # (never created nor flushed), set before the tests so that they may declare it.
    connections.settings[REPLICA] = {**primary, "PORT": str(node.port), "OPTIONS": {"connect_timeout": 2},
                                     "TEST": {**primary["TEST"], "MIRROR": "default"}}
    try:
        yield node
    finally:
        connections[REPLICA].close()
        del connections[REPLICA]
        del connections.settings[REPLICA]
        node.stop()
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture
def replica(standby, settings) -> Iterator[Standby]:
    """The standby behind the "replica" alias, its verdict never cached; worker and beat alive for /healthz."""
    settings.DATABASE_REPLICA_CHECK_EVERY_S = 0
    settings.DATABASE_REPLICA_MAX_LAG_S = 3600
    for process in ("worker", "beat"):
        heartbeat_write(process=process)
    yield standby
    connections[REPLICA].close()


def _on_standby(sql: str) -> object:
    with connections[REPLICA].cursor() as cursor:
        cursor.execute(sql)
        return cursor.fetchone()[0]


def _standby_has(name: str) -> bool:
    with connections[REPLICA].cursor() as cursor:
        cursor.execute("SELECT count(*) FROM targets_target WHERE name = %s", [name])
        return cursor.fetchone()[0] == 1


def _demo(name: str) -> Target:
    return Target.objects.create(name=name, mode=Target.Mode.DEMO, enabled=False)


@pytest.mark.replica
@pytest.mark.django_db(transaction=True, databases=["default", REPLICA])
class ReadReplicaTests:
    def test_pages_read_the_standby_writes_go_to_the_primary_and_lag_sends_pages_back(
            self, replica, viewer_client, settings):
        _demo("seen-everywhere")
        wait_for(lambda: _standby_has("seen-everywhere"), timeout_s=60, what="the standby to replay the insert")
        assert _on_standby("SELECT pg_is_in_recovery()") is True

        _on_standby("SELECT pg_wal_replay_pause()")
        try:
            _demo("only-on-primary")  # written on the primary, not replayed by the paused standby
            with CaptureQueriesContext(connections[REPLICA]) as on_standby:
                page = viewer_client.get("/").content.decode()
            assert on_standby.captured_queries, "the page read nothing from the standby"
            assert "seen-everywhere" in page and "only-on-primary" not in page

            settings.DATABASE_REPLICA_MAX_LAG_S = 1
            lagging = wait_for(lambda: replica_state().state == "lagging" and replica_state(),
                               timeout_s=30, what="the paused standby to count as lagging")
            assert lagging.lag_s is not None and lagging.lag_s > 1
            with CaptureQueriesContext(connections[REPLICA]) as on_standby:
                page = viewer_client.get("/").content.decode()
            assert "only-on-primary" in page
            assert not [q for q in on_standby.captured_queries if "targets_target" in q["sql"]]
            health = viewer_client.get("/healthz")
            assert health.status_code == 200, health.json()
            assert health.json()["replica"]["state"] == "lagging"
        finally:
            _on_standby("SELECT pg_wal_replay_resume()")

        caught_up = wait_for(lambda: replica_state(fresh=True).lag_s == 0.0 and replica_state(),
                             timeout_s=60, what="the standby to replay everything the primary wrote")
        assert caught_up.detail == "ok: replayed everything the primary wrote"
        # The primary may write again meanwhile (a session, a heartbeat): the standby is then a moment behind,
        # still ok within the lag allowed.
        replica = viewer_client.get("/healthz").json()["replica"]
        assert replica["state"] == "ok" and replica["lag_s"] <= settings.DATABASE_REPLICA_MAX_LAG_S, replica

    def test_within_a_page_request_a_write_goes_to_the_primary_and_is_read_back_from_it(self, replica):
        with replica_reads():
            assert Target.objects.filter(name="written-in-a-page").count() == 0  # read from the standby
            _demo("written-in-a-page")  # the standby is read-only: this succeeds only on the primary
            assert Target.objects.get(name="written-in-a-page").mode == "demo"  # its own write, from the primary

    def test_tasks_and_commands_read_the_primary(self, replica):
        with CaptureQueriesContext(connections[REPLICA]) as on_standby:
            Target.objects.filter(name="anything").exists()

        assert on_standby.captured_queries == []

    def test_a_stopped_standby_leaves_pages_to_the_primary_and_healthz_says_down(self, replica, viewer_client):
        replica.stop()
        try:
            _demo("after-the-standby-stopped")
            response = viewer_client.get("/")
            assert response.status_code == 200
            assert "after-the-standby-stopped" in response.content.decode()
            health = viewer_client.get("/healthz")
            assert health.status_code == 200, health.json()
            assert health.json()["replica"]["state"] == "down"
            assert "standby unreachable" in health.json()["replica"]["detail"]
        finally:
            replica.start()
