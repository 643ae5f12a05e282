"""A queued refresh or prune whose target or refresh was deleted meanwhile ends quietly: one line at INFO."""

from __future__ import annotations

import pytest
from django.utils import timezone

from apps.tiering.models import Refresh
from apps.tiering.tasks import recommendation_runs_prune, refresh_run
from tests.logs import assert_logs


@pytest.mark.django_db
class LateTasksOfDeletedObjectsTests:
    def test_a_refresh_of_a_deleted_target_does_nothing_and_says_so_at_info(self, demo_target):
        refresh = Refresh.objects.create(target=demo_target, queued_at=timezone.now())
        demo_target.delete()  # its queued refresh goes with it

        with assert_logs("apps.tiering") as logs:
            result = refresh_run.apply(args=(refresh.id,))

        assert result.successful(), result.traceback
        assert [r.levelname for r in logs.records] == ["INFO"]
        assert f"refresh {refresh.id} no longer exists" in logs.output[0]

    def test_a_refresh_whose_target_is_deleted_while_it_runs_ends_quietly(self, demo_target, monkeypatch):
        from apps.tiering.recommendations import refreshes

        refresh = Refresh.objects.create(target=demo_target, queued_at=timezone.now())

        def deleted_meanwhile(*, target_id, now):
            from apps.targets.models import Target

            Target.objects.filter(pk=target_id).delete()
            raise Target.DoesNotExist("Target matching query does not exist.")

        monkeypatch.setattr(refreshes, "recommendation_refresh", deleted_meanwhile)
        with assert_logs("apps.tiering") as logs:
            result = refresh_run.apply(args=(refresh.id,))

        assert result.successful(), result.traceback
        assert [r.levelname for r in logs.records] == ["INFO"]
        assert f"refresh {refresh.id} no longer exists" in logs.output[0]

    def test_a_prune_of_a_deleted_target_does_nothing_and_says_so_at_info(self, demo_target):
        target_id = demo_target.id
        demo_target.delete()

        with assert_logs("apps.tiering") as logs:
            result = recommendation_runs_prune.apply(args=(target_id,))

        assert result.successful(), result.traceback
        assert result.get() == 0
        assert [r.levelname for r in logs.records] == ["INFO"]
        assert f"target {target_id} no longer exists" in logs.output[0]
