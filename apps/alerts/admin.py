from __future__ import annotations

from django.contrib import admin, messages

from apps.alerts.models import AlertMessage, AlertRule, AlertState
from apps.alerts.tasks import alert_send as alert_send_task


@admin.register(AlertRule)
class AlertRuleAdmin(admin.ModelAdmin):
    list_display = ("name", "target", "enabled", "failures_in_a_row", "missed_intervals", "heartbeats",
                    "new_moves_usd_per_month", "plan_changes")
    list_filter = ("enabled",)


@admin.register(AlertState)
class AlertStateAdmin(admin.ModelAdmin):
    list_display = ("rule", "key", "firing", "changed_at", "detail")
    list_filter = ("firing",)
    readonly_fields = ("rule", "key", "firing", "changed_at", "detail", "memo")


@admin.register(AlertMessage)
class AlertMessageAdmin(admin.ModelAdmin):
    list_display = ("created_at", "subject", "destination_shown", "status", "attempts", "last_error")
    list_filter = ("status",)
    exclude = ("destination",)
    readonly_fields = ("rule", "destination_shown", "subject", "body", "payload", "created_at", "status", "attempts",
                       "sent_at", "last_error")
    actions = ["resend"]

    @admin.action(description="Send again")
    def resend(self, request, queryset):
        ids = list(queryset.exclude(status=AlertMessage.Status.SENT).values_list("pk", flat=True))
        queryset.filter(pk__in=ids).update(status=AlertMessage.Status.PENDING, attempts=0)
        for message_id in ids:
            alert_send_task.delay(message_id)
        self.message_user(request, f"{len(ids)} message(s) queued again", messages.SUCCESS)
