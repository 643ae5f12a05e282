"""Beat evaluates the alerts every minute; the task it names exists and, run twice, tells nothing twice."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.core import mail
from django.utils import timezone

from apps.alerts.models import AlertMessage, AlertRule
from apps.snapshots.models import CollectionRun


def test_beat_schedules_the_evaluation_every_minute():
    import apps.alerts.tasks  # noqa: F401 (registers its tasks, as the worker's autodiscovery does)
    from config.celery import app

    entry = settings.TIERSCOPE_BEAT_SCHEDULE["evaluate-alerts"]

    assert entry == {"task": "apps.alerts.tasks.alerts_evaluate", "every_seconds": 60}
    assert entry["task"] in app.tasks


@pytest.mark.django_db
def test_the_beat_task_run_twice_tells_a_failure_once(target, django_capture_on_commit_callbacks):
    from apps.alerts.tasks import alerts_evaluate

    AlertRule.objects.create(name="dba", failures_in_a_row=1, missed_intervals=None, heartbeats=False,
                             email_to="dba@example.com")
    now = timezone.now()
    CollectionRun.objects.create(target=target, status="failed", queued_at=now, finished_at=now)

    with django_capture_on_commit_callbacks(execute=True):
        alerts_evaluate.delay()
        alerts_evaluate.delay()

    assert AlertMessage.objects.count() == 1 and len(mail.outbox) == 1
