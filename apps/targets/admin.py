from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages

from apps.targets.models import TablespaceTier, Target


class TargetForm(forms.ModelForm):
    # Write-only: the stored password is never rendered back into the form.
    password = forms.CharField(
        required=False,
        widget=forms.PasswordInput(render_value=False),
        help_text="Leave empty to keep the stored password.",
    )

    class Meta:
        model = Target
        fields = ["name", "mode", "dsn", "username", "password", "interval_minutes", "enabled", "tier_set", "demo_seed"]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        mode = cleaned.get("mode")
        if mode in (Target.Mode.AWR, Target.Mode.NOPACK):
            for field in ("dsn", "username"):
                if not cleaned.get(field):
                    self.add_error(field, f"Required for a live Oracle target ({mode} mode).")
            if not cleaned.get("password") and not (self.instance and self.instance.password_encrypted):
                self.add_error("password", "Required for a live Oracle target.")
        return cleaned

    def save(self, commit: bool = True) -> Target:
        target = super().save(commit=False)
        if self.cleaned_data.get("password"):
            target.set_password(self.cleaned_data["password"])
        if commit:
            target.save()
        return target


class TablespaceTierInline(admin.TabularInline):
    model = TablespaceTier
    extra = 1


@admin.register(Target)
class TargetAdmin(admin.ModelAdmin):
    form = TargetForm
    list_display = ["name", "mode", "dsn", "interval_minutes", "tier_set", "enabled", "next_collect_at"]
    list_filter = ["mode", "enabled"]
    search_fields = ["name", "dsn"]
    inlines = [TablespaceTierInline]
    readonly_fields = ["next_collect_at", "capabilities"]
    actions = ["test_connection"]

    @admin.action(description="Test connection (release, grants, Diagnostics Pack switch)")
    def test_connection(self, request: Any, queryset: Any) -> None:
        from apps.targets.services import target_check

        for target in queryset:
            findings = target_check(target=target)
            level = messages.WARNING if findings else messages.SUCCESS
            self.message_user(request, f"{target.name}: " + ("; ".join(findings) or "connected, all checks passed"),
                              level)


@admin.register(TablespaceTier)
class TablespaceTierAdmin(admin.ModelAdmin):
    list_display = ["target", "tablespace_name", "tier"]
    list_filter = ["target", "tier"]
