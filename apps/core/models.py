from __future__ import annotations

import datetime as dt

from auditlog.models import AbstractLogEntry
from django.db import models

from apps.core.audit_registry import AuditLogEntryManager


class AuditLogEntry(AbstractLogEntry):
    """django-auditlog's log entry (AUDITLOG_LOGENTRY_MODEL) plus who and which target, as text.

    ``actor_name`` keeps who acted after the user row is gone (auditlog's ``actor`` is SET_NULL) and
    names the non-user actors: ``manage.py add_target (os user alice)``. ``target_name`` is set on the
    actions that are not model changes ("collect now", imports, add_target: action ACCESS, written by
    apps.core.audit.audit_event_record), so the audit page can filter them by target.
    """

    actor_name = models.CharField(max_length=200, blank=True, default="")
    target_name = models.CharField(max_length=128, blank=True, default="")

    objects = AuditLogEntryManager()

    class Meta(AbstractLogEntry.Meta):
        indexes = [
            # The audit page's target filter on actions.
            models.Index(fields=["target_name", "-timestamp"], name="audit_target_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.get_action_display()} {self.object_repr} by {self.who}"

    @property
    def who(self) -> str:
        if self.actor_name:
            return self.actor_name
        return self.actor.get_username() if self.actor_id else "system"


class RunDuration:
    """``duration_s`` of a model run by a worker (a collection run, a refresh): the seconds from its
    ``started_at`` to its ``finished_at``, None until both are set."""

    __slots__ = ()
    started_at: dt.datetime | None
    finished_at: dt.datetime | None

    @property
    def duration_s(self) -> float | None:
        if self.started_at and self.finished_at:
            return (self.finished_at - self.started_at).total_seconds()
        return None
