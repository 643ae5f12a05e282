"""A target's collections, connection checks and refreshes go to its group's queue; everything else to the default."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from apps.core.routing import route_task
from apps.snapshots import tasks as snapshot_tasks
from apps.snapshots.runs import run_enqueue
from apps.targets.models import TargetCheck
from apps.targets.tasks import target_check
from apps.tiering import tasks as tiering_tasks
from apps.tiering.models import Refresh


def _route(task, *args):
    return route_task(task.name, args, {}, {}, task=task)


@pytest.mark.django_db
class RoutingTests:
    def test_a_collection_of_a_target_of_a_group_goes_to_its_queue(self, demo_target):
        demo_target.collect_queue = "group-b"
        demo_target.save()

        assert _route(snapshot_tasks.snapshot_collect, demo_target.id, 7) == {"queue": "group-b"}

    def test_a_collection_of_a_target_without_a_queue_goes_to_the_default_queue(self, demo_target):
        assert _route(snapshot_tasks.snapshot_collect, demo_target.id, 7) is None

    def test_a_connection_check_and_a_refresh_follow_their_target(self, demo_target):
        demo_target.collect_queue = "group-b"
        demo_target.save()
        check = TargetCheck.objects.create(target=demo_target, queued_at=timezone.now())
        refresh = Refresh.objects.create(target=demo_target, queued_at=timezone.now())

        assert _route(target_check, check.id) == {"queue": "group-b"}
        assert _route(tiering_tasks.refresh_run, refresh.id) == {"queue": "group-b"}

    def test_the_reapers_and_the_fan_out_stay_on_the_default_queue(self, demo_target):
        demo_target.collect_queue = "group-b"
        demo_target.save()

        for task in (snapshot_tasks.runs_reap, snapshot_tasks.snapshot_collect_due, tiering_tasks.refreshes_reap,
                     snapshot_tasks.window_base_prepare):
            assert _route(task, demo_target.id) is None, task.name

    def test_the_celery_app_routes_through_it(self, demo_target):
        from config.celery import app

        demo_target.collect_queue = "group-b"
        demo_target.save()
        route = app.amqp.router.route({}, snapshot_tasks.snapshot_collect.name, args=(demo_target.id, 1),
                                      task_type=snapshot_tasks.snapshot_collect)

        assert route["queue"].name == "group-b"

    def test_a_run_records_the_queue_it_was_sent_to(self, demo_target, django_capture_on_commit_callbacks):
        demo_target.collect_queue = "group-b"
        demo_target.save()
        with django_capture_on_commit_callbacks(execute=False), transaction.atomic():
            run = run_enqueue(target=demo_target, trigger="manual")

        run.refresh_from_db()
        assert run.queue == "group-b"

    def test_a_queue_name_outside_lower_case_letters_digits_dash_underscore_is_refused(self, demo_target):
        demo_target.collect_queue = "Group B"

        with pytest.raises(ValidationError) as error:
            demo_target.full_clean()
        assert "collect_queue" in error.value.message_dict

    def test_the_admin_form_edits_the_queue(self, demo_target, admin_client):
        response = admin_client.get(f"/admin/targets/target/{demo_target.id}/change/")

        assert response.status_code == 200
        assert 'name="collect_queue"' in response.content.decode()
