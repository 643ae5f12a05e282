from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings

from apps.apitokens.services import NAME_MAX_CHARS


class TokenCreateForm(forms.Form):
    """Name and expiry of a new token; the bounds are checked by apps.apitokens.services.token_create."""

    name = forms.CharField(max_length=NAME_MAX_CHARS, help_text="What it is for, e.g. 'nightly report'.")
    expires_days = forms.IntegerField(label="Expires in (days)")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        max_days = settings.TIERSCOPE_API_TOKEN_MAX_DAYS
        field = self.fields["expires_days"]
        field.initial = settings.TIERSCOPE_API_TOKEN_DAYS
        field.widget.attrs.update(min=1, max=max_days)
        field.help_text = f"1 to {max_days}."
