"""A queued task whose target or run was deleted meanwhile ends quietly: nothing done, one line at INFO."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from apps.snapshots.models import CollectionRun
from apps.snapshots.tasks import snapshot_collect, window_base_prepare
from tests.logs import assert_logs


def _deleted_target_and_run(target) -> tuple[int, int]:
    run = CollectionRun.objects.create(target=target, trigger="manual", queued_at=timezone.now())
    ids = target.id, run.id
    target.delete()  # the run goes with it
    return ids


@pytest.mark.django_db
class LateTasksOfDeletedObjectsTests:
    def test_a_collection_of_a_deleted_target_does_nothing_and_says_so_at_info(self, demo_target):
        target_id, run_id = _deleted_target_and_run(demo_target)

        with assert_logs("apps.snapshots") as logs:
            result = snapshot_collect.apply(args=(target_id, run_id))

        assert result.successful(), result.traceback
        assert result.get().startswith("skipped: ")
        assert [r.levelname for r in logs.records] == ["INFO"]
        assert f"target {target_id} no longer exists" in logs.output[0]
        assert not CollectionRun.objects.filter(target_id=target_id).exists()

    def test_a_collection_whose_run_was_deleted_does_nothing_and_says_so_at_info(self, demo_target):
        run = CollectionRun.objects.create(target=demo_target, trigger="manual", queued_at=timezone.now())
        run_id = run.id
        run.delete()

        with assert_logs("apps.snapshots") as logs:
            result = snapshot_collect.apply(args=(demo_target.id, run_id))

        assert result.successful(), result.traceback
        assert [r.levelname for r in logs.records] == ["INFO"]
        assert f"run {run_id} of demo no longer exists" in logs.output[0]
        assert not CollectionRun.objects.filter(target=demo_target).exists()  # no run made in its place

    def test_a_base_to_prepare_for_a_deleted_target_does_nothing_and_says_so_at_info(self, demo_target):
        target_id = demo_target.id
        demo_target.delete()

        with assert_logs("apps.snapshots") as logs:
            result = window_base_prepare.apply(args=(target_id, dt.date(2026, 11, 1).isoformat(), 7, "p95"))

        assert result.successful(), result.traceback
        assert result.get() == []
        assert [r.levelname for r in logs.records] == ["INFO"]
        assert f"target {target_id} no longer exists" in logs.output[0]
