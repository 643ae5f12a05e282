"""What most tests share: their "now" (where stored figures end and refreshes run) and the units of their figures.

The named actors (a viewer, an admin, the demo target on the seed tiers) are fixtures in tests/conftest.py;
targets with stored figures are built by the helper modules beside the tests that read them (for example
tests/tiering/stored_targets.py, tests/snapshots/stored_series.py).

New tests take one style: pytest, in ``tests/<app>/test_<module>.py`` mirroring apps/, classes ``<Thing>Tests``
with ``test_it_<does_what>`` methods (or plain test functions), actors and stored targets from fixtures, helpers
imported from helper modules (never from another ``test_*`` module: tests/test_layout_rules.py checks it), no
wall-clock bounds (timings go to bench/).

Rows that many tests of a module only read are written once for the module with :func:`rows_for_module`.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.db import transaction
from django.test import TestCase

#: The tests' "now": the end of the last hourly snapshot a stored target holds, and when its refresh runs.
NOW = dt.datetime(2026, 11, 20, 12, 0, tzinfo=dt.timezone.utc)
GB = 1024**3


def rows_for_module(build: Callable[[], Any]) -> Any:
    """A module-scoped fixture whose value is ``build()``, run once for the test module in a transaction that is
    rolled back when the module ends.

    Each test of the module runs in a savepoint of that transaction (pytest-django's ``db`` is set up after a
    module-wide fixture), so what one test writes is undone before the next. ``build`` returns ids, not model
    instances: a test reads its rows afresh, so one test's changes to an instance never reach another. Not for
    transactional tests (a worker's, a browser's, a live server's): they need committed rows."""

    @pytest.fixture(scope="module")
    def fixture(request: pytest.FixtureRequest, django_db_setup: None, django_db_blocker: Any) -> Iterator[Any]:
        committing = [item.name for item in request.session.items if item.module is request.module and _commits(item)]
        assert not committing, (f"{request.module.__name__}: rows_for_module holds a transaction open for the "
                                f"whole module, where these tests need theirs committed: {committing}")
        with django_db_blocker.unblock(), transaction.atomic():
            yield build()
            transaction.set_rollback(True)

    return fixture


def _commits(item: Any) -> bool:
    """Whether a test commits its rows (transactional, or with a live server)."""
    marker = item.get_closest_marker("django_db")
    return bool(marker and marker.kwargs.get("transaction")) or bool(
        {"transactional_db", "live_server"} & set(getattr(item, "fixturenames", ())))


def on_commit_run() -> Any:
    """What a test's block queues for after its commit, run when the block ends (the refresh after a collection,
    the rendering after a refresh): pytest-django's ``django_capture_on_commit_callbacks(execute=True)``, for
    the module-wide rows of :func:`rows_for_module`, which no function-scoped fixture can serve."""
    return TestCase.captureOnCommitCallbacks(execute=True)


def demo_collected_id() -> int:
    """The seed tiers installed and the demo target collected as the worker does (its refresh run): its id."""
    # Imported here: tests/conftest.py imports this module before Django's apps are ready.
    from apps.dashboard.bootstrap import demo_ensure
    from apps.snapshots.services import snapshot_collect
    from apps.targets.models import Target
    from apps.tiering.tiers import tier_presets_install

    tier_presets_install()
    demo_ensure()
    target_id = Target.objects.get(name="demo").pk
    with on_commit_run():
        run = snapshot_collect(target_id=target_id, trigger="command")
    assert run.status == "succeeded", run.error
    return target_id
