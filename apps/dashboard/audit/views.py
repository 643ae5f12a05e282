"""/audit/: the audit log for admins, filtered (who, target, what, action, when, name), paged by keyset.

A page is the entries older (or newer) than the one a link stands at, read in (timestamp, id) order: never an
offset skipped through the whole log. The count is bounded (COUNT_CAP) so a long log costs the same.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.core import signing
from django.db.models import Q, QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from apps.core.audit import (
    audit_action_names,
    audit_actor_names,
    audit_content_types,
    audit_entry_list,
    audit_target_names,
)
from apps.core.models import AuditLogEntry
from apps.dashboard.access import staff_required
from apps.dashboard.audit.forms import AuditFilterChoices, AuditFilterForm
from apps.dashboard.audit.rows import AuditRow, audit_rows

AUDIT_PAGE_SIZE = 50
COUNT_CAP = 1000
_SALT = "tierscope.dashboard.audit"


class BadCursor(ValueError):
    """A page link this page did not make (edited or cut)."""


@dataclass(frozen=True)
class AuditPage:
    rows: list[AuditRow]
    older: str | None  # cursor of the next page (older entries); None: this is the last
    newer: str | None  # cursor of the previous page (newer entries); None: this is the first

    def __iter__(self):
        return iter(self.rows)

    def __len__(self) -> int:
        return len(self.rows)


def _cursor(entry: Any) -> str:
    return signing.dumps([entry.timestamp.isoformat(), entry.pk], salt=_SALT)


def _decode(token: str) -> tuple[dt.datetime, int]:
    try:
        stamp, pk = signing.loads(token, salt=_SALT)
        return dt.datetime.fromisoformat(stamp), int(pk)
    except (signing.BadSignature, ValueError, TypeError) as exc:
        raise BadCursor("the page link is not one this page made") from exc


def audit_page(entries: QuerySet[Any], *, older: str | None = None, newer: str | None = None,
               size: int = AUDIT_PAGE_SIZE) -> AuditPage:
    """``size`` entries of ``entries`` (newest first): the first ones, those older than the cursor ``older`` or
    those newer than ``newer``. One query. BadCursor for a cursor not made here."""
    if newer:
        stamp, pk = _decode(newer)
        above = entries.filter(Q(timestamp__gt=stamp) | Q(timestamp=stamp, pk__gt=pk)).order_by("timestamp", "pk")
        found = list(above[: size + 1])
        if len(found) <= size:  # back at the newest entries: the first page, full
            return audit_page(entries, size=size)
        found = found[:size][::-1]
        return AuditPage(rows=audit_rows(found), older=_cursor(found[-1]), newer=_cursor(found[0]))
    query = entries
    if older:
        stamp, pk = _decode(older)
        query = entries.filter(Q(timestamp__lt=stamp) | Q(timestamp=stamp, pk__lt=pk))
    found = list(query.order_by("-timestamp", "-pk")[: size + 1])
    more, found = len(found) > size, found[:size]
    return AuditPage(rows=audit_rows(found), older=_cursor(found[-1]) if more else None,
                     newer=_cursor(found[0]) if older and found else None)


@require_GET
@staff_required
def audit(request: HttpRequest) -> HttpResponse:
    """The audit log for admins: creates and deletes in one line, updates field by field (old → new), actions
    with their outcome; newest first, filtered."""
    choices = AuditFilterChoices(actors=audit_actor_names(), targets=audit_target_names(),
                                 content_types=audit_content_types(), actions=audit_action_names())
    form = AuditFilterForm(request.GET, choices=choices)
    filters = form.filters()
    entries = audit_entry_list(**filters)
    notes = form.error_lines()
    try:
        page = audit_page(entries, older=request.GET.get("older"), newer=request.GET.get("newer"))
    except BadCursor as exc:
        notes.append(f"Page link ignored ({exc}): showing the newest entries.")
        page = audit_page(entries)
    count = entries[: COUNT_CAP + 1].count()
    return render(request, "dashboard/audit.html", {
        "form": form, "page": page, "notes": notes, "access": AuditLogEntry.Action.ACCESS,
        "count": min(count, COUNT_CAP), "count_capped": count > COUNT_CAP,
        "filtered": any(value not in (None, "") for value in filters.values()),
    })
