"""Sending one queued alert message, recording each attempt on its row (status, attempts, last error)."""

from __future__ import annotations

import datetime as dt
import logging

from django.utils import timezone

from apps.alerts.channels import DeliveryError, deliver
from apps.alerts.models import AlertMessage

logger = logging.getLogger(__name__)

Status = AlertMessage.Status


class SendRetry(Exception):
    """Not delivered, retries left: the task retries the same message later."""


def alert_message_send(*, message_id: int, last_try: bool) -> AlertMessage | None:
    """Deliver a pending message once. A message already sent (a task delivered twice) is left alone.

    On failure the error is logged and kept on the row; with tries left :class:`SendRetry` is raised,
    else (or when the error is permanent) the message is marked failed: it stays listed in the admin.
    """
    message = AlertMessage.objects.filter(pk=message_id).first()
    if message is None or message.status == Status.SENT:
        return message
    message.attempts += 1
    try:
        deliver(message)
    except DeliveryError as exc:
        give_up = last_try or exc.permanent
        message.status, message.last_error = (Status.FAILED if give_up else Status.PENDING), str(exc)
        message.save(update_fields=["status", "attempts", "last_error"])
        logger.error("alert %r (message %s) not sent, attempt %s: %s; %s", message.subject, message.pk,
                     message.attempts, exc, "given up (listed in the admin as failed)" if give_up else "retrying")
        if not give_up:
            raise SendRetry(str(exc)) from exc
        return message
    message.status, message.sent_at, message.last_error = Status.SENT, timezone.now(), ""
    message.save(update_fields=["status", "attempts", "sent_at", "last_error"])
    return message


def alert_messages_stuck(*, now: dt.datetime, older_than_s: int) -> list[int]:
    """Pending messages never attempted after ``older_than_s`` (their task was lost: the broker was down
    when they were written): the beat evaluation queues them again."""
    cutoff = now - dt.timedelta(seconds=older_than_s)
    return list(AlertMessage.objects.filter(status=Status.PENDING, attempts=0, created_at__lt=cutoff)
                .values_list("pk", flat=True))
