"""What the audit log records of model changes: the models registered with django-auditlog, the target each
row belongs to (the audit page's target filter) and the mask for secrets. Imported by apps.core.models (the
entry's manager), so it imports no model of ours."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from auditlog.models import LogEntryManager
from auditlog.registry import auditlog
from django.core.exceptions import ObjectDoesNotExist
from django.db import models

# model -> how to name the target an entry about one of its rows belongs to (the page's target filter).
_TARGET_NAMES: dict[type[models.Model], Callable[[Any], str]] = {}


def audit_register(model: type[models.Model], *, target_name: Callable[[Any], str] | None = None,
                   **options: Any) -> None:
    """Log every create/update/delete of ``model`` with old and new values (auditlog's register options).

    ``target_name(instance)`` names the target a row belongs to, so the audit page can filter by target.
    """
    # Only the row's own fields: auditlog would list reverse relations on create ("checks: None → …").
    excluded = {model._meta.pk.name, *options.pop("exclude_fields", [])}
    fields = [field.name for field in model._meta.concrete_fields if field.name not in excluded]
    auditlog.register(model, include_fields=fields, mask_callable="apps.core.audit_registry.secret_mask", **options)
    if target_name is not None:
        _TARGET_NAMES[model] = target_name


def secret_mask(value: str) -> str:
    """What the log says for a secret: set or not, never a character of it (auditlog's mask_callable).

    auditlog's default mask keeps half of the value; half a ciphertext is still not for a log.

    >>> secret_mask("gAAAAABl..."), secret_mask("")
    ('(set)', '(none)')
    """
    return "(none)" if value in ("", "None") else "(set)"


def audit_target_name(instance: models.Model) -> str:
    name_of = _TARGET_NAMES.get(type(instance))
    if name_of is None:
        return ""
    try:
        return name_of(instance)
    except ObjectDoesNotExist:  # a row deleted with its target
        return ""


class AuditLogEntryManager(LogEntryManager):
    def log_create(self, instance: models.Model, force_log: bool = False, **kwargs: Any) -> Any:
        kwargs.setdefault("target_name", audit_target_name(instance))
        return super().log_create(instance, force_log=force_log, **kwargs)
