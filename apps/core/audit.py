"""The audit log: who changed what (django-auditlog, old and new values) and who did what ("collect now", imports).

Model changes are written by django-auditlog for the models each app registers in its AppConfig.ready() (see
apps.core.audit_registry, which also masks secrets); actions that change no audited row are written by
:func:`audit_event_record` as entries with action ACCESS. Both land in :class:`apps.core.models.AuditLogEntry`, so
the admin and the /audit/ page read one table. Who: the request's user (:class:`AuditMiddleware`), or for a
management command ``manage.py <command> (os user <name>)`` (:func:`audit_command`).
"""

from __future__ import annotations

import datetime as dt
import getpass
from collections.abc import Callable
from functools import wraps
from pathlib import Path
from typing import Any

from auditlog.context import set_extra_data
from auditlog.middleware import AuditlogMiddleware
from django.contrib.contenttypes.models import ContentType
from django.db import models
from django.db.models import Q, QuerySet
from django.http import HttpRequest

from apps.core.db import json_key
from apps.core.errors import first_line
from apps.core.models import AuditLogEntry
from apps.core.time import day_bounds, day_start


class AuditMiddleware(AuditlogMiddleware):
    """auditlog's middleware (actor, address) that also writes the user's name into each entry."""

    def get_extra_data(self, request: HttpRequest) -> dict[str, Any]:
        context = super().get_extra_data(request)
        context["actor_name"] = context["actor"].get_username() if context["actor"] else ""
        return context


def command_actor_name(command: str) -> str:
    try:
        user = getpass.getuser()
    except (KeyError, OSError):  # no passwd entry (a container's arbitrary uid)
        user = "unknown"
    return f"manage.py {command} (os user {user})"


def audit_command(command: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Decorate a command's ``handle``: its changes are logged as ``manage.py <command> (os user …)``, and
    a run that fails is recorded as an action with the reason (the success is recorded by the command)."""

    def decorate(handle: Callable[..., Any]) -> Callable[..., Any]:
        @wraps(handle)
        def wrapper(self: Any, *args: Any, **options: Any) -> Any:
            with set_extra_data({"actor": None, "actor_name": command_actor_name(command), "remote_addr": None}):
                try:
                    return handle(self, *args, **options)
                except Exception as error:
                    files = " ".join(str(value) for value in options.values() if isinstance(value, Path))
                    target = str(options.get("target") or options.get("name") or "")
                    audit_event_record(actor=None, action=command, target_name=target, detail=files,
                                       outcome=f"failed: {first_line(error)}")
                    raise

        return wrapper

    return decorate


def audit_event_record(*, actor: Any, action: str, target: models.Model | None = None, target_name: str = "",
                       detail: str = "", outcome: str = "ok") -> Any:
    """Record an action that is not a model change: who (a user, or None in a command), on which target.

    Written as an auditlog entry with action ACCESS, about ``target`` when there is one; ``detail`` says
    what (a file name), ``outcome`` how it ended.
    """
    user = actor if getattr(actor, "is_authenticated", False) else None
    pk = target.pk if target is not None else None
    return AuditLogEntry.objects.create(
        # No target: the entry is about itself (no row of another model to link to).
        content_type=ContentType.objects.get_for_model(target if target is not None else AuditLogEntry),
        object_pk="" if pk is None else str(pk), object_id=pk if isinstance(pk, int) else None,
        object_repr=str(target) if target is not None else (target_name or action),
        action=AuditLogEntry.Action.ACCESS, actor=user, actor_email=getattr(user, "email", None),
        actor_name=user.get_username() if user else "", target_name=_clipped(target_name or str(target or ""), 128),
        additional_data={"action": action, "detail": detail, "outcome": outcome},
    )


def _clipped(text: str, limit: int) -> str:
    # A refused name can be longer than the column (an add_target --name of 200 characters): the entry
    # keeps its start, marked as cut, and the whole of it stays in object_repr.
    return text if len(text) <= limit else text[:limit - 1] + "…"


# What the audit page's "action" filter offers beside the actions' own names: the three kinds of model change.
CHANGE_ACTIONS = {"create": 0, "update": 1, "delete": 2}  # auditlog's LogEntry.Action values


def audit_entry_list(*, target_name: str = "", actor_name: str = "", content_type_id: int | None = None,
                     action: str = "", since: dt.date | None = None, until: dt.date | None = None,
                     text: str = "") -> QuerySet[Any]:
    """Model changes and actions, newest first, optionally of one target, one actor, one kind of object
    (``content_type_id``), one action (``create``, ``update``, ``delete`` or an action's name such as
    "collect now"), between two days (UTC, both included) and whose object's name contains ``text``."""
    entries = AuditLogEntry.objects.select_related("content_type", "actor").order_by("-timestamp", "-pk")
    if target_name:
        entries = entries.filter(target_name=target_name)
    if actor_name:
        entries = entries.filter(Q(actor_name=actor_name) | Q(actor__username=actor_name))
    if content_type_id is not None:
        entries = entries.filter(content_type_id=content_type_id)
    if action in CHANGE_ACTIONS:
        entries = entries.filter(action=CHANGE_ACTIONS[action])
    elif action:
        entries = entries.filter(action=AuditLogEntry.Action.ACCESS, additional_data__action=action)
    if since is not None:
        entries = entries.filter(timestamp__gte=day_start(since))
    if until is not None:
        entries = entries.filter(timestamp__lt=day_bounds(until)[1])
    if text:
        entries = entries.filter(object_repr__icontains=text)
    return entries


def audit_action_names() -> list[str]:
    """The names of the actions in the log ("collect now", "import report", …), for the page's action filter."""
    names = (AuditLogEntry.objects.filter(action=AuditLogEntry.Action.ACCESS)
             .annotate(action_name=json_key("additional_data", "action")).order_by("action_name")
             .values_list("action_name", flat=True).distinct())
    return [name for name in names if name]


def audit_content_types() -> list[ContentType]:
    """The kinds of object the log has entries about, for the page's "what" filter."""
    ids = AuditLogEntry.objects.order_by().values_list("content_type_id", flat=True).distinct()
    return sorted(ContentType.objects.filter(pk__in=ids), key=lambda ct: str(ct.name))


def audit_actor_names() -> list[str]:
    """Who appears in the log, for the page's actor filter: the names written with the entries, and the users
    of entries written without one (a change made with auditlog's set_actor outside a request)."""
    named = AuditLogEntry.objects.exclude(actor_name="").values_list("actor_name", flat=True).distinct()
    users = (AuditLogEntry.objects.filter(actor_name="", actor__isnull=False)
             .values_list("actor__username", flat=True).distinct())
    return sorted({*named, *users})


def audit_target_names() -> list[str]:
    return list(AuditLogEntry.objects.exclude(target_name="").order_by("target_name")
                .values_list("target_name", flat=True).distinct())
