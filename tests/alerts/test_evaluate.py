"""The beat evaluation and the refresh and plan hooks: stale targets, stale processes, new moves, plans, digests."""

from __future__ import annotations

import datetime as dt
import time

import pytest
from django.core import mail
from django.utils import timezone

from apps.alerts.evaluate import alerts_evaluate
from apps.alerts.models import AlertMessage, AlertRule
from apps.core.config import get_config
from apps.core.heartbeat import heartbeat_write
from apps.snapshots.models import CollectionRun
from apps.targets.models import Target

pytestmark = pytest.mark.django_db


@pytest.fixture
def alerts_pass(django_capture_on_commit_callbacks):
    """An evaluation pass as beat's task makes it: its messages sent once it commits."""
    def evaluated(**kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            return alerts_evaluate(**kwargs)

    return evaluated


def _subjects() -> list[str]:
    return [message.subject for message in mail.outbox]


def test_a_target_not_collected_for_m_intervals_is_told_once_then_its_recovery(target, end_run, alerts_pass):
    AlertRule.objects.create(name="stale", failures_in_a_row=None, missed_intervals=3, heartbeats=False,
                             email_to="dba@example.com")
    run = end_run(target, "succeeded")
    late = run.finished_at + dt.timedelta(minutes=3 * target.interval_minutes + 1)
    mail.outbox.clear()

    alerts_pass(now=late)
    alerts_pass(now=late + dt.timedelta(minutes=5))
    # Past three hourly intervals: told once, whatever the number of passes.
    assert _subjects() == ["[tierscope] prod: not collected"]

    end_run(target, "succeeded")
    alerts_pass(now=timezone.now())
    assert _subjects()[1:] == ["[tierscope] RESOLVED prod: not collected"]


def test_a_disabled_or_report_only_target_is_never_stale(seed_tiers, alerts_pass):
    AlertRule.objects.create(name="stale", failures_in_a_row=None, missed_intervals=1, heartbeats=False,
                             email_to="dba@example.com")
    Target.objects.create(name="off", mode=Target.Mode.AWR, dsn="db:1521/x", enabled=False)
    Target.objects.create(name="reports", mode=Target.Mode.REPORT)

    assert alerts_pass(now=timezone.now() + dt.timedelta(days=3)) == []


def test_a_stale_worker_and_beat_are_told_and_their_return(no_heartbeats, alerts_pass):
    AlertRule.objects.create(name="ops", heartbeats=True, email_to="ops@example.com")

    alerts_pass(now=timezone.now())
    alerts_pass(now=timezone.now())
    assert sorted(_subjects()) == ["[tierscope] Celery beat not alive", "[tierscope] Celery worker not alive"]

    heartbeat_write(process="worker", at_s=time.time())
    heartbeat_write(process="beat", at_s=time.time())
    alerts_pass(now=timezone.now())
    assert sorted(_subjects()[2:]) == ["[tierscope] RESOLVED Celery beat not alive",
                                       "[tierscope] RESOLVED Celery worker not alive"]


def test_many_changes_at_once_go_as_one_digest(seed_tiers, settings, alerts_pass):
    get_config.cache_clear()
    settings.TIERSCOPE = {"ALERT_MAX_PER_HOUR": 2}
    try:
        AlertRule.objects.create(name="dba", failures_in_a_row=1, missed_intervals=None, heartbeats=False,
                                 email_to="dba@example.com")
        now = timezone.now()
        for name in ("a", "b", "c", "d"):
            failed = Target.objects.create(name=name, mode=Target.Mode.AWR, dsn="db:1521/x")
            CollectionRun.objects.create(target=failed, status="failed", queued_at=now, finished_at=now)

        alerts_pass(now=now)
    finally:
        get_config.cache_clear()

    # Four targets failing in one pass: one message listing them.
    assert _subjects() == ["[tierscope] 4 alert changes (digest)"]
    for name in ("a", "b", "c", "d"):
        assert f"- {name}: collection failing" in mail.outbox[0].body


def test_a_refresh_with_new_moves_worth_more_than_the_threshold_is_told_once(demo_target, collect):
    AlertRule.objects.create(name="savings", failures_in_a_row=None, missed_intervals=None, heartbeats=False,
                             new_moves_usd_per_month="0.01", email_to="finops@example.com")

    collect(demo_target)
    # The refresh after the run found moves: told, with their monthly saving.
    moves = [m for m in AlertMessage.objects.all() if "new moves worth" in m.subject]
    assert len(moves) == 1 and moves[0].payload["events"][0]["kind"] == "moves"

    collect(demo_target)
    # The same moves again: nothing new to tell.
    assert len([m for m in AlertMessage.objects.all() if "new moves worth" in m.subject]) == 1


def test_a_threshold_above_the_savings_tells_nothing(demo_target, collect):
    AlertRule.objects.create(name="savings", failures_in_a_row=None, missed_intervals=None, heartbeats=False,
                             new_moves_usd_per_month="99999999", email_to="finops@example.com")

    collect(demo_target)

    assert not [m for m in AlertMessage.objects.all() if "new moves worth" in m.subject]


def test_a_plan_changing_state_is_told_once(target, admin_user, django_user_model, django_capture_on_commit_callbacks):
    from apps.tiering.plans.models import Plan
    from apps.tiering.plans.services import plan_transition

    AlertRule.objects.create(name="changes", failures_in_a_row=None, missed_intervals=None, heartbeats=False,
                             email_to="cab@example.com")
    author = django_user_model.objects.create_superuser(username="author", password="x-pass-1")
    plan = Plan.objects.create(target=target, source="selected (1 recommendation)", created_at=timezone.now(),
                               created_by=author, created_by_name="author")

    with django_capture_on_commit_callbacks(execute=True):
        plan_transition(plan_id=plan.pk, to=Plan.State.APPROVED, user=admin_user)

    assert _subjects() == [f"[tierscope] prod: plan {plan.pk} approved"]
    assert "(by ada)" in mail.outbox[0].body

    from apps.alerts.tasks import alert_plan_changed

    alert_plan_changed.delay(plan.pk, Plan.State.APPROVED, "ada")  # a second delivery of the same change
    assert len(mail.outbox) == 1
