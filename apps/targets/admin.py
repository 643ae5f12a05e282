from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.http import HttpResponseRedirect
from django.urls import reverse
from django.utils.html import format_html

from apps.core.admin_delete import CountedDeleteAdmin
from apps.targets.deletion import target_delete_request
from apps.targets.forms import TargetForm
from apps.targets.models import StorageLocation, TablespaceTier, Target, TargetCheck
from apps.targets.services import target_check_enqueue
from apps.targets.storage import LocationError, location_name_parse


class TablespaceTierInline(admin.TabularInline):
    model = TablespaceTier
    extra = 1


@admin.register(Target)
class TargetAdmin(CountedDeleteAdmin):
    form = TargetForm
    list_display = ["name", "mode", "dsn", "interval_minutes", "collect_queue", "tier_set", "enabled",
                    "next_collect_at"]
    list_filter = ["mode", "enabled"]
    search_fields = ["name", "dsn"]
    inlines = [TablespaceTierInline]
    readonly_fields = ["next_collect_at", "capabilities"]
    actions = ["test_connection"]

    def delete_model(self, request: Any, obj: Target) -> None:
        target_delete_request(target=obj)  # gone at once; a worker removes its data (apps.targets.deletion)

    def delete_queryset(self, request: Any, queryset: Any) -> None:
        for target in queryset:
            target_delete_request(target=target)

    @admin.action(description="Test connection (release, grants, Diagnostics Pack switch)")
    def test_connection(self, request: Any, queryset: Any) -> HttpResponseRedirect | None:
        """Queue one check per selected target on a worker; never connect inside the web request.

        One target: go to its check page. Several: one message per target with a link to its page.
        """
        checks = []
        for target in queryset:
            check = target_check_enqueue(target=target, requested_by=request.user.get_username())
            checks.append(check)
        sent = []
        for check in checks:
            check.refresh_from_db()  # the task was sent on commit; a broker that is down failed it already
            if check.status == TargetCheck.Status.FAILED and check.started_at is None:
                self.message_user(request, f"{check.target.name}: {check.error}", messages.ERROR)
                continue
            sent.append(check)
            if len(checks) > 1:  # one target: its page is where the admin lands
                url = reverse("targets:check", args=[check.target.name, check.pk])
                self.message_user(request, format_html('{}: check queued — <a href="{}">follow it</a>.',
                                                       check.target.name, url), messages.INFO)
        if len(checks) == 1 and sent:
            return HttpResponseRedirect(reverse("targets:check", args=[sent[0].target.name, sent[0].pk]))
        return None


@admin.register(TablespaceTier)
class TablespaceTierAdmin(admin.ModelAdmin):
    list_display = ["target", "tablespace_name", "tier"]
    list_filter = ["target", "tier"]


class StorageLocationForm(forms.ModelForm):
    """A disk group or mount point as the DBA types it ('+data', '/u03/'): kept as the storage map names it."""

    class Meta:
        model = StorageLocation
        fields = ["target", "name", "tier", "array_tiering"]

    def clean(self) -> dict[str, Any]:
        super().clean()  # Form.clean returns cleaned_data (typed optional by django-stubs)
        cleaned = self.cleaned_data
        try:
            cleaned["name"], self.instance.kind = location_name_parse(cleaned.get("name") or "")
        except LocationError as error:
            self.add_error("name", str(error))
        return cleaned


@admin.register(StorageLocation)
class StorageLocationAdmin(admin.ModelAdmin):
    """The storage map (apps.targets.storage): a location's tier, which its tablespaces take unless the hand
    map names theirs; the target page shows the map and has the same form."""

    form = StorageLocationForm
    list_display = ["target", "name", "kind", "tier", "array_tiering"]
    list_filter = ["target", "kind", "array_tiering"]
