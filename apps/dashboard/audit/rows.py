"""How the audit page words an entry: a create or a delete as one line, an update as each field's old → new.

django-auditlog records a create as every field going from None to its value; the page says instead
"created target PROD1 (mode nopack, dsn db1:1521/PROD1, password (set))": the values set, without the empty
ones and those left at the field's default.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.core.exceptions import FieldDoesNotExist
from django.db import models

# What auditlog writes for "no value".
_EMPTY = {"", "None", "[]", "{}", "(none)"}  # "(none)": a secret not set (apps.core.audit_registry.secret_mask)
_VERBS = {0: "created", 2: "deleted"}


@dataclass(frozen=True)
class AuditRow:
    entry: Any  # apps.core.models.AuditLogEntry
    line: str  # a create or delete in one line ("" for the others)
    changes: list[tuple[str, str, str]]  # an update's (field, old, new)


def _pair(values: Any) -> tuple[str, str]:
    """(old, new) of a change as text; a many-to-many change (a dict of what was added or removed) whole as new."""
    if isinstance(values, (list, tuple)) and len(values) == 2:
        return str(values[0]), str(values[1])
    return "", str(values)


def _field(model: type[models.Model] | None, name: str) -> models.Field | None:
    if model is None:
        return None
    try:
        field = model._meta.get_field(name)
    except FieldDoesNotExist:
        return None
    return field if isinstance(field, models.Field) else None  # a reverse relation is no field of its own


def _label(field: models.Field | None, name: str) -> str:
    """The field's name as a DBA reads it: its verbose name, "password" for the encrypted one."""
    if name.endswith("_encrypted"):
        return name.removesuffix("_encrypted").replace("_", " ")
    return str(field.verbose_name) if field is not None else name.replace("_", " ")


def _is_default(field: models.Field | None, value: str) -> bool:
    """Whether ``value`` (as auditlog wrote it) is the field's plain default; a computed default is never
    skipped (its value at the time is not known here)."""
    if field is None or not field.has_default() or callable(field.default):
        return False
    return str(field.default) == value


def created_or_deleted_line(verb: str, kind: str, name: str, changes: dict[str, Any],
                            model: type[models.Model] | None) -> str:
    """One line for a create or a delete: the values set, without empty ones and plain defaults.

    >>> created_or_deleted_line("created", "target", "PROD1", {"name": ["None", "PROD1"], "mode": ["None", "nopack"],
    ...                         "dsn": ["None", ""], "password_encrypted": ["None", "(set)"]}, None)
    'created target PROD1 (mode nopack, password (set))'
    >>> created_or_deleted_line("deleted", "tier", "flash", {"name": ["flash", "None"]}, None)
    'deleted tier flash'
    """
    if verb == "deleted":
        return f"deleted {kind} {name}"
    parts = []
    # In the model's order of fields (the log keeps them by name); the one that is the object's name is said once.
    order = {f.name: i for i, f in enumerate(model._meta.get_fields())} if model is not None else {}
    for field_name, values in sorted(changes.items(), key=lambda item: order.get(item[0], len(order))):
        new = _pair(values)[1]
        field = _field(model, field_name)
        if new in _EMPTY or new == name or _is_default(field, new):
            continue
        parts.append(f"{_label(field, field_name)} {new}")
    return f"{verb} {kind} {name}" + (f" ({', '.join(parts)})" if parts else "")


def audit_rows(entries: list[Any]) -> list[AuditRow]:
    """The page's rows for ``entries`` (their content types already loaded)."""
    rows = []
    for entry in entries:
        verb = _VERBS.get(entry.action)
        changes = entry.changes_dict if entry.action != entry.Action.ACCESS else {}
        if verb is not None:
            model = entry.content_type.model_class()
            line = created_or_deleted_line(verb, str(entry.content_type.name), entry.object_repr, changes, model)
            rows.append(AuditRow(entry=entry, line=line, changes=[]))
        else:
            rows.append(AuditRow(entry=entry, line="", changes=[(field, *_pair(values))
                                                                for field, values in changes.items()]))
    return rows
