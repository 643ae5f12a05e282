"""`manage.py collect <target>` against a listener that accepts and never answers, as a subprocess.

Before: the command printed its failure after 2 min 15 s (four attempts waiting 30 s each for the
pool, plus backoff) and never exited (the pool's thread kept the process alive). Now each attempt
fails at the connect limit and the process exits.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest

from tests.conftest import ROOT

from .listeners import HungListener, closed_port

# ORACLE_CONNECT_TIMEOUT_S = 1 and COLLECT_MAX_RETRIES = 1 in hung_settings: two attempts of 1 s,
# 2 s of backoff between them, plus Django's start-up.
EXIT_WITHIN_S = 15


def collect(target_name: str) -> tuple[subprocess.CompletedProcess[str], float]:
    from django.db import connection

    db = connection.settings_dict
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "tests.targets.oracle.hung_settings",
        "DATABASE_URL": f"postgres://{db['USER']}:{db['PASSWORD']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
    }
    started = time.monotonic()
    # A timeout here means the command did not exit: the test fails instead of hanging.
    done = subprocess.run([sys.executable, "manage.py", "collect", target_name], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60)
    return done, time.monotonic() - started


def live_target(name: str, dsn: str):
    from apps.targets.models import Target

    target = Target(name=name, mode=Target.Mode.NOPACK, dsn=dsn, username="TIERSCOPE")
    target.set_password("p")
    target.save()
    return target


@pytest.mark.django_db(transaction=True)
def test_collect_exits_within_its_bounds_on_a_hung_listener():
    from apps.snapshots.models import CollectionRun

    with HungListener(hold_s=60) as listener:
        target = live_target("hung", listener.dsn)
        done, elapsed = collect("hung")

    assert done.returncode != 0
    assert elapsed < EXIT_WITHIN_S
    assert f"{listener.dsn} accepted the connection but did not answer within 1 s" in done.stderr
    assert "retrying" in done.stderr  # the transient error was retried, once
    assert listener.accepted() == 2
    run = CollectionRun.objects.get(target=target)
    assert run.status == CollectionRun.Status.FAILED and run.attempts == 2


@pytest.mark.django_db(transaction=True)
def test_collect_fails_fast_on_a_closed_port():
    live_target("gone", f"127.0.0.1:{closed_port()}/GONE")
    done, elapsed = collect("gone")

    assert done.returncode != 0
    assert elapsed < EXIT_WITHIN_S
    assert "refused the connection" in done.stderr


@pytest.mark.django_db
def test_collect_stops_retrying_after_the_policys_attempts(settings):
    from unittest import mock

    from django.core.management import CommandError, call_command

    from apps.core.config import get_config
    from apps.snapshots import services

    live_target("flaky", "127.0.0.1:1/X")
    always_retryable = mock.Mock(side_effect=services.CollectRetryable("DPY-4011 at X", run_id=1))
    # Patched where the command calls it (its module imports it at the top).
    with mock.patch("apps.snapshots.management.commands.collect.snapshot_collect", always_retryable), \
            mock.patch("apps.snapshots.management.commands.collect.time.sleep") as slept:
        with pytest.raises(CommandError, match="gave up after"):
            call_command("collect", "flaky")
    attempts = get_config()["COLLECT_MAX_RETRIES"] + 1
    assert always_retryable.call_count == attempts
    assert all(call.args[0] <= 10 for call in slept.call_args_list)
