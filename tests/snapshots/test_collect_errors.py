"""Targets that fail: clear messages, bounded retries for transient errors only, other targets unaffected.

The Oracle boundary is the only thing faked: an unreachable listener is real
(python-oracledb thin against a closed loopback port); credential and grant
errors are real python-oracledb exception objects raised by a fake connection.
"""

from __future__ import annotations

import pytest

from apps.snapshots.models import CollectionRun, Snapshot
from apps.snapshots.tasks import snapshot_collect as snapshot_collect_task
from apps.targets.models import Target
from apps.targets.oracle.source import OracleSource
from tests.targets.oracle.fakes import FakeConnect, load_recording
from tests.targets.oracle.oracle_errors import ora


@pytest.fixture
def oracle_target(db, seed_tiers) -> Target:
    target = Target(name="sales", mode=Target.Mode.AWR, dsn="127.0.0.1:9/SALES", username="TIERSCOPE")
    target.set_password("secret")
    target.save()
    return target


@pytest.fixture
def fake_oracle(monkeypatch):
    """Route OracleSource through a FakeConnect configured by the test."""
    holder: dict[str, FakeConnect] = {}
    original = OracleSource.__init__

    def init(self, **kwargs):
        kwargs.setdefault("connect", holder.get("connect"))
        original(self, **kwargs)

    monkeypatch.setattr(OracleSource, "__init__", init)
    return holder


@pytest.fixture
def no_backoff(settings):
    """Retries without waiting, run eagerly in-process (Celery re-applies a retried eager task)."""
    from apps.core.config import get_config
    from config.celery import app

    get_config.cache_clear()
    settings.TIERSCOPE = {"COLLECT_RETRY_BACKOFF_S": 0}
    app.conf.task_eager_propagates = False
    yield
    app.conf.task_eager_propagates = True
    get_config.cache_clear()


@pytest.mark.django_db
class CollectErrorTests:
    def test_an_unreachable_target_fails_after_bounded_retries_naming_the_dsn(self, oracle_target, no_backoff):
        snapshot_collect_task.apply(args=(oracle_target.id,))

        run = CollectionRun.objects.get(target=oracle_target)
        assert run.status == CollectionRun.Status.FAILED
        assert run.attempts == 4  # the first try and COLLECT_MAX_RETRIES = 3 retries
        assert "127.0.0.1:9/SALES" in run.error

    def test_a_wrong_password_fails_at_once_with_a_message(self, oracle_target, fake_oracle, no_backoff):
        fake_oracle["connect"] = FakeConnect(load_recording("rac_awr"),
                                             connect_error=ora(1017, "invalid username/password; logon denied"))

        snapshot_collect_task.apply(args=(oracle_target.id,))

        run = CollectionRun.objects.get(target=oracle_target)
        assert run.status == CollectionRun.Status.FAILED
        assert run.attempts == 1  # permanent: never retried
        assert "ORA-01017" in run.error and "TIERSCOPE" in run.error

    def test_a_missing_grant_names_the_grant_to_give(self, oracle_target, fake_oracle, no_backoff):
        fake_oracle["connect"] = FakeConnect(
            load_recording("rac_awr"), failures={"snapshots": ora(942, "table or view does not exist")}
        )

        snapshot_collect_task.apply(args=(oracle_target.id,))

        run = CollectionRun.objects.get(target=oracle_target)
        assert run.status == CollectionRun.Status.FAILED
        assert run.attempts == 1
        assert "GRANT" in run.error and "DBA_HIST_SNAPSHOT" in run.error
        # Nothing half-written: the failing statement ran before anything was stored.
        assert not Snapshot.objects.filter(target=oracle_target).exists()

    def test_other_targets_keep_collecting_when_one_fails(self, oracle_target, demo_target, no_backoff,
                                                          django_capture_on_commit_callbacks):
        from django.utils import timezone

        from apps.snapshots.services import snapshot_collect_due

        Target.objects.update(next_collect_at=None)
        with django_capture_on_commit_callbacks(execute=True):
            enqueued = snapshot_collect_due(now=timezone.now())

        assert enqueued == 2
        statuses = dict(CollectionRun.objects.values_list("target__name", "status"))
        assert statuses == {"sales": "failed", "demo": "succeeded"}
        assert Snapshot.objects.filter(target=demo_target).exists()

    def test_a_failing_target_is_not_retried_by_the_scheduler_every_tick(self, oracle_target, no_backoff):
        from django.utils import timezone

        from apps.snapshots.services import targets_due

        snapshot_collect_task.apply(args=(oracle_target.id,))

        oracle_target.refresh_from_db()
        assert oracle_target.next_collect_at > timezone.now()
        assert oracle_target.id not in targets_due(now=timezone.now())
