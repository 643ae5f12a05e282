from __future__ import annotations

from auditlog.admin import LogEntryAdmin
from django.contrib import admin

from apps.core import sso_admin  # noqa: F401  (trims allauth's admin pages)
from apps.core.models import AuditLogEntry

# auditlog registers its admin for the entry model; ours also shows who (a user or a command) and the target.
admin.site.unregister(AuditLogEntry)


@admin.register(AuditLogEntry)
class AuditLogEntryAdmin(LogEntryAdmin):
    list_display = ["created", "resource_url", "action", "msg_short", "who", "target_name", "additional_data"]
    search_fields = [*LogEntryAdmin.search_fields, "actor_name", "target_name"]
    list_filter = [*LogEntryAdmin.list_filter, "target_name"]
    readonly_fields = [*LogEntryAdmin.readonly_fields, "who", "target_name", "additional_data", "remote_addr"]
    fieldsets = [
        (None, {"fields": ["created", "who", "resource_url", "target_name", "remote_addr", "cid"]}),
        ("Changes", {"fields": ["action", "msg", "additional_data"]}),
    ]
