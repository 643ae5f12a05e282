"""One run lifecycle for collections and imports: the target's lock first, then the run; the same "busy" outcome."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.db import connections
from django.utils import timezone

from apps.core.locks import LockSpace
from apps.snapshots import runs
from apps.snapshots.imports import ImportRefused, extract_import
from apps.snapshots.models import CollectionRun, Snapshot
from apps.snapshots.services import snapshot_collect
from apps.targets.models import Target

EXTRACT = Path(__file__).resolve().parents[1] / "targets" / "extract" / "fixtures" / "single"
Status = CollectionRun.Status


@pytest.fixture
def extract_target(db) -> Target:
    return Target.objects.create(name="offline", mode=Target.Mode.REPORT)


@pytest.fixture
def lock_held():
    """Another session (a collection in progress elsewhere) holding a target's run lock."""
    other = connections.create_connection("default")

    def hold(target: Target) -> None:
        with other.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_lock(%s, %s)", [int(LockSpace.TARGET_RUN), target.id])

    yield hold
    other.close()


@pytest.fixture
def steps(monkeypatch) -> list[str]:
    """The order in which a run takes its target's lock and is started."""
    seen: list[str] = []
    real_try, real_start = runs.lock_try, runs.run_start

    def lock_try(space, key):
        seen.append("lock")
        return real_try(space, key)

    def run_start(**kwargs):
        seen.append("start")
        return real_start(**kwargs)

    monkeypatch.setattr(runs, "lock_try", lock_try)
    monkeypatch.setattr(runs, "run_start", run_start)
    return seen


@pytest.mark.django_db
class RunLifecycleTests:
    def test_a_collection_takes_the_targets_lock_then_starts_its_run(self, demo_target, steps):
        run = snapshot_collect(target_id=demo_target.id, trigger="command")

        assert run.status == Status.SUCCEEDED
        assert steps == ["lock", "start"]

    def test_an_import_takes_the_targets_lock_then_starts_its_run(self, extract_target, steps):
        run = extract_import(target=extract_target, path_or_zip=EXTRACT)

        assert run.status == Status.SUCCEEDED
        assert steps == ["lock", "start"]

    def test_a_busy_collection_is_never_marked_running(self, demo_target, lock_held, steps):
        lock_held(demo_target)

        run = snapshot_collect(target_id=demo_target.id, trigger="command")

        assert steps == ["lock"]
        assert run.status == Status.SKIPPED

    def test_an_import_while_a_collection_runs_is_skipped_as_a_second_collection_is(
            self, demo_target, extract_target, lock_held):
        lock_held(demo_target)
        lock_held(extract_target)
        collection = snapshot_collect(target_id=demo_target.id, trigger="command")

        with pytest.raises(ImportRefused, match="Another collection or import of this target was running") as refused:
            extract_import(target=extract_target, path_or_zip=EXTRACT)

        # The same outcome: a skipped run with the same error, and nothing written.
        imported = CollectionRun.objects.get(target=extract_target)
        assert (imported.status, imported.error) == (collection.status, collection.error) == (Status.SKIPPED,
                                                                                              runs.BUSY_ERROR)
        assert imported.trigger == "import"
        assert "import again in a minute" in str(refused.value).lower()
        assert not Snapshot.objects.filter(target__in=[demo_target, extract_target]).exists()

    def test_a_run_ended_meanwhile_is_left_as_it_is_even_when_the_lock_is_taken(self, demo_target, lock_held):
        ended = CollectionRun.objects.create(target=demo_target, status=Status.FAILED, error="reaped",
                                             queued_at=timezone.now())
        lock_held(demo_target)

        with pytest.raises(runs.RunEnded):
            snapshot_collect(target_id=demo_target.id, run_id=ended.id)

        ended.refresh_from_db()
        assert (ended.status, ended.error) == (Status.FAILED, "reaped")

    def test_a_run_is_ended_before_its_lock_is_released(self, demo_target, monkeypatch):
        statuses: list[str] = []
        real_release = runs.lock_release

        def lock_release(space, key):
            if space == LockSpace.TARGET_RUN:
                statuses.append(CollectionRun.objects.get(target=demo_target).status)
            real_release(space, key)

        monkeypatch.setattr(runs, "lock_release", lock_release)

        snapshot_collect(target_id=demo_target.id, trigger="command")

        assert statuses == [Status.SUCCEEDED]
