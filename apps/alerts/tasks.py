"""Alert tasks: thin, idempotent (states and messages are rows; a message sent is never sent again)."""

from __future__ import annotations

from celery import shared_task
from django.utils import timezone

from apps.alerts import evaluate
from apps.alerts.services import SendRetry, alert_message_send, alert_messages_stuck
from apps.core.config import get_config
from apps.targets.models import Target
from apps.tiering.plans.models import Plan


@shared_task(acks_late=True)
def alerts_evaluate(target_id: int | None = None) -> int:
    now = timezone.now()
    told = evaluate.alerts_evaluate(now=now, target_id=target_id)
    if target_id is None:  # the beat pass also queues the messages whose task was lost
        for message_id in alert_messages_stuck(now=now, older_than_s=600):
            alert_send.delay(message_id)
    return len(told)


@shared_task(acks_late=True)
def alert_moves_check(target_id: int) -> int:
    if not Target.objects.filter(pk=target_id).exists():
        return 0
    return len(evaluate.alert_moves_check(target_id=target_id, now=timezone.now()))


@shared_task(acks_late=True)
def alert_plan_changed(plan_id: int, state: str, by: str) -> int:
    plan = Plan.objects.select_related("target").filter(pk=plan_id).first()
    if plan is None:
        return 0
    return len(evaluate.alert_plan_changed(plan_id=plan_id, state=state, by=by, target=plan.target, now=timezone.now()))


@shared_task(bind=True, acks_late=True, max_retries=None)
def alert_send(self, message_id: int) -> None:
    retries = get_config()["ALERT_SEND_MAX_RETRIES"]
    try:
        alert_message_send(message_id=message_id, last_try=self.request.retries >= retries)
    except SendRetry as exc:
        raise self.retry(exc=exc, countdown=get_config()["ALERT_SEND_BACKOFF_S"] * 2 ** self.request.retries,
                         max_retries=retries) from exc
