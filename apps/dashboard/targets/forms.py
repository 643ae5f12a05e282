"""Forms of the targets page: the admin's target form, and the delete confirmation."""

from __future__ import annotations

from typing import Any

from django import forms

from apps.targets.forms import TargetForm
from apps.targets.models import Target


class TargetPageForm(TargetForm):
    """The admin's form (same fields, same checks: DSN, user and password for a live Oracle target; the password
    encrypted before it is stored, never shown back) with the hints a DBA needs next to each field."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["dsn"].label = "DSN"
        self.fields["interval_minutes"].label = "Interval (minutes)"
        self.fields["dsn"].widget.attrs["placeholder"] = "dbhost1:1521/PROD"
        self.fields["dsn"].help_text = "host:port/service_name (awr and nopack modes)"
        self.fields["username"].widget.attrs["placeholder"] = "TIERSCOPE"
        self.fields["username"].help_text = "the monitoring account (awr and nopack modes)"
        self.fields["password"].widget.attrs["autocomplete"] = "new-password"
        if self.instance.pk is None:
            self.fields["password"].help_text = "Stored encrypted; never shown again."
        elif self.instance.password_encrypted:
            self.fields["password"].help_text = "A password is stored (not shown). Leave empty to keep it."
        else:
            self.fields["password"].help_text = "No password is stored."
        self.fields["interval_minutes"].help_text = "minutes between collections (at least 5)"
        self.fields["demo_seed"].help_text = "demo mode only: the simulation's seed"


class TargetDeleteForm(forms.Form):
    """Deleting a target takes its whole history with it: its name is typed to confirm."""

    confirm_name = forms.CharField(max_length=60, label="Type the target's name to confirm",
                                   widget=forms.TextInput(attrs={"autocomplete": "off"}))

    def __init__(self, *args: Any, target: Target, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.target = target

    def clean_confirm_name(self) -> str:
        typed = self.cleaned_data["confirm_name"].strip()
        if typed != self.target.name:
            raise forms.ValidationError(f"{typed!r} is not {self.target.name!r}: nothing was deleted.")
        return typed
