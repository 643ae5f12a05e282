"""Shared fixtures: named actors, a real Celery worker, a real browser."""

from __future__ import annotations

import os
import subprocess
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.base import demo_collected_id, rows_for_module
from tests.browser import watch_csp, watch_script_errors
from tests.workers import worker_process, worker_stop

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"


@pytest.fixture
def viewer(django_user_model):
    return django_user_model.objects.create_user(username="vera", password="vera-pass-1")


@pytest.fixture
def admin_user(django_user_model):
    return django_user_model.objects.create_superuser(username="ada", email="", password="ada-pass-1")


@pytest.fixture
def other_admin(django_user_model):
    """A second admin ("bob": a plan's approver), with the admin's password so browser tests log in alike."""
    return django_user_model.objects.create_superuser(username="bob", email="", password="ada-pass-1")


@pytest.fixture
def viewer_client(client, viewer):
    client.force_login(viewer)
    return client


@pytest.fixture
def admin_client(client, admin_user):
    client.force_login(admin_user)
    return client


@pytest.fixture
def seed_tiers(db):
    from apps.tiering.tiers import tier_presets_install

    tier_presets_install()


@pytest.fixture
def demo_target(db, seed_tiers):
    from apps.dashboard.bootstrap import demo_ensure
    from apps.targets.models import Target

    demo_ensure()
    return Target.objects.get(name="demo")


@pytest.fixture
def report_target(db):
    """An empty target fed by AWR report imports."""
    from apps.targets.models import Target

    return Target.objects.create(name="xydb", mode=Target.Mode.REPORT)


@pytest.fixture
def refresh_target(db, seed_tiers):
    """Target t1 with 100 hours stored (tests/tiering/stored_targets.py): HOT, 2 GB on hi-cap disk with 10 busy
    hours, and COLD, 100 GB on flash; not refreshed yet."""
    from tests.tiering.stored_targets import refresh_target_store

    return refresh_target_store()


@pytest.fixture
def grouped_target(db, seed_tiers):
    """Target "grouped" (tests/tiering/stored_targets.py): fifteen small partitions of APP.ORDERS on hi-cap disk,
    worth moving to flash only together; not refreshed yet."""
    from tests.tiering.stored_targets import grouped_target_store

    return grouped_target_store()


@pytest.fixture
def collect(django_capture_on_commit_callbacks):
    """Collect a target as the worker does: the collection, then what it queues once committed (the
    refresh of its recommendations, a task of its own: eager in tests)."""
    def collect_target(target, **kwargs):
        from apps.snapshots.services import snapshot_collect

        with django_capture_on_commit_callbacks(execute=True):
            return snapshot_collect(target_id=target.id, trigger=kwargs.pop("trigger", "command"), **kwargs)

    return collect_target


@dataclass
class Worker:
    queue: str
    proc: subprocess.Popen


@pytest.fixture
def celery_worker_queue(celery_worker: Worker) -> str:
    """The private queue of a real worker (see ``celery_worker``)."""
    return celery_worker.queue


@pytest.fixture
def celery_worker(settings) -> Iterator[Worker]:
    """A real Celery worker process on the real Redis broker, consuming a queue of its own.

    It talks to the test database, so tests that use it must be transactional
    (``@pytest.mark.django_db(transaction=True)``). The worker runs in its own
    process group so a test can kill it whole.
    """
    from config.celery import app

    queue = f"test-{uuid.uuid4().hex[:8]}"
    # What the worker enqueues (a window base to prepare) stays with it.
    proc = worker_process(queue, default_queue=queue, log_level="INFO", stdout=subprocess.PIPE)
    app.conf.task_always_eager = False
    previous_queue = app.conf.task_default_queue
    app.conf.task_default_queue = queue  # everything the test enqueues goes to this worker only
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            replies = app.control.ping(destination=[f"{queue}@{os.uname().nodename}"], timeout=0.5)
            if replies:
                break
            if proc.poll() is not None:
                raise RuntimeError(f"celery worker exited: {proc.stdout.read()}")
        else:
            raise RuntimeError("celery worker did not answer a ping within 60 s")
        yield Worker(queue=queue, proc=proc)
    finally:
        app.conf.task_always_eager = True
        app.conf.task_default_queue = previous_queue
        worker_stop(proc, timeout_s=20)


CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
]


@pytest.fixture(scope="session")
def browser():
    """Debian's Chromium driven by Playwright (no browser download)."""
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # Playwright's sync API runs an event loop
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        instance = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield instance
        instance.close()


CSP_SEEN = pytest.StashKey[list]()


@pytest.fixture
def page(browser, request):
    """A page in a fresh browser context; the test fails if any of its pages broke the Content-Security-Policy or
    had a script error (an uncaught exception, a script that did not load)."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000}, accept_downloads=True)
    page = context.new_page()
    seen = request.node.stash[CSP_SEEN] = watch_csp(page)
    script_errors = watch_script_errors(page)
    yield page
    context.close()
    assert not seen, f"CSP violations: {seen}"
    assert not script_errors, f"Script errors: {script_errors}"


@pytest.fixture
def csp_violations(page, request) -> list[str]:
    """The CSP violations the test's page has reported so far (a test may check there are none mid-way)."""
    return request.node.stash[CSP_SEEN]


@pytest.fixture
def collected(demo_target, collect):
    """The demo target, collected once as the worker does (its snapshots and recommendations stored; its
    tablespaces are mapped, so some of its recommendations are moves)."""
    run = collect(demo_target)
    assert run.status == "succeeded", run.error
    demo_target.refresh_from_db()
    return demo_target


#: ``collected``'s demo, collected once for the module (tests/base.py rows_for_module). A module whose tests only
#: read it overrides ``collected`` with ``collected_shared``.
collected_for_module = rows_for_module(demo_collected_id)


@pytest.fixture
def collected_shared(collected_for_module, db):
    """``collected`` from the module's one collection (``collected_for_module``), read afresh for each test."""
    from apps.targets.models import Target

    return Target.objects.get(pk=collected_for_module)


@pytest.fixture
def no_heartbeats():
    """This test database's heartbeat keys removed before and after (no worker of ours writes them): the
    worker and beat read as stale (alerts, /metrics)."""
    import redis
    from django.conf import settings

    from apps.core.heartbeat import heartbeat_key

    client = redis.Redis.from_url(settings.REDIS_URL)
    keys = [heartbeat_key(process) for process in ("worker", "beat")]
    client.delete(*keys)
    yield
    client.delete(*keys)
    client.close()
