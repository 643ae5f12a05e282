"""Forms of the targets app shared by the admin and the targets page (apps.dashboard.targets.views)."""

from __future__ import annotations

from typing import Any

from django import forms

from apps.targets.models import Target


class TargetForm(forms.ModelForm):
    # Write-only: the stored password is never rendered back into the form.
    password = forms.CharField(
        required=False,
        widget=forms.PasswordInput(render_value=False),
        help_text="Leave empty to keep the stored password.",
    )

    class Meta:
        model = Target
        fields = ["name", "mode", "dsn", "username", "password", "interval_minutes", "enabled", "collect_queue",
                  "tier_set", "demo_seed"]

    def clean(self) -> dict[str, Any]:
        super().clean()  # Form.clean returns cleaned_data (typed optional by django-stubs)
        cleaned = self.cleaned_data
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
