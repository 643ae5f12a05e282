"""From events to messages: one per destination of the rule, or one digest when a rule says too much.

Messages are rows (AlertMessage) written in the caller's transaction; each is sent by its own task once
committed (apps.alerts.tasks.alert_send), so a message is never sent for a state change that rolled back,
and one that cannot be delivered stays on its row with its error.
"""

from __future__ import annotations

import datetime as dt
import functools
from dataclasses import asdict, dataclass, replace

from django.db import transaction

from apps.alerts.models import AlertMessage, AlertRule
from apps.core.config import get_config


@dataclass(frozen=True)
class Event:
    kind: str  # failing | stale | heartbeat | moves | plan
    target: str  # the target's name ("" for the worker and beat)
    title: str
    detail: str
    state: str = "firing"  # firing | resolved | notice (moves and plans: nothing to resolve)

    def __post_init__(self) -> None:
        if self.kind in ("moves", "plan") and self.state == "firing":
            object.__setattr__(self, "state", "notice")

    def recovered(self) -> Event:
        return replace(self, state="resolved", title=f"RESOLVED {self.title}",
                       detail=f"back to normal (was: {self.detail})")


def events_queue(*, rule: AlertRule, events: list[Event], now: dt.datetime) -> list[AlertMessage]:
    """Write the messages of ``events`` for every destination of ``rule`` and send them after commit.

    Past ALERT_MAX_PER_HOUR messages of the rule in the last hour (those sent counted with these), the
    events go as one digest per destination rather than one message each: a fleet going down at once
    makes one message, not a storm.
    """
    if not events or not rule.destinations:
        return []
    recent = AlertMessage.objects.filter(rule=rule, created_at__gt=now - dt.timedelta(hours=1)).count()
    per_destination = len(events)
    if recent + per_destination * len(rule.destinations) > get_config()["ALERT_MAX_PER_HOUR"] and len(events) > 1:
        groups = [events]
    else:
        groups = [[event] for event in events]
    messages = []
    for group in groups:
        subject, body = _words(group)
        payload = {"source": "tierscope", "rule": rule.name, "at": now.isoformat(), "title": subject,
                   "events": [asdict(event) for event in group]}
        for destination in rule.destinations:
            messages.append(AlertMessage(rule=rule, destination=destination, subject=subject[:300], body=body,
                                         payload=payload, created_at=now))
    AlertMessage.objects.bulk_create(messages)
    for message in messages:
        transaction.on_commit(functools.partial(_send, message_id=message.pk))
    return messages


def _words(group: list[Event]) -> tuple[str, str]:
    if len(group) == 1:
        event = group[0]
        return f"[tierscope] {event.title}", f"{event.title}\n\n{event.detail}\n"
    lines = [f"- {event.title}: {event.detail}" for event in group]
    return f"[tierscope] {len(group)} alert changes (digest)", "\n".join(lines) + "\n"


def _send(*, message_id: int) -> None:
    from apps.alerts.tasks import alert_send as alert_send_task  # cycle: apps.alerts.tasks

    alert_send_task.delay(message_id)
