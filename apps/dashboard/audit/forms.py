"""The audit page's filters (GET): who, on which target, what kind of object, which action, when, name contains."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django import forms

from apps.core.audit import CHANGE_ACTIONS
from apps.core.form_fields import form_field
from apps.core.models import AuditLogEntry


@dataclass(frozen=True)
class AuditFilterChoices:
    actors: list[str]
    targets: list[str]
    content_types: list[Any]  # ContentType rows
    actions: list[str]  # the actions' own names ("collect now", …)


class AuditFilterForm(forms.Form):
    """Filters of /audit/. A value that is not valid (a date that is not one, a name no longer in the log) is
    reported by the page and that filter left out; the others still apply."""

    actor = forms.ChoiceField(required=False, label="Who")
    target = forms.ChoiceField(required=False, label="Target")
    type = forms.TypedChoiceField(required=False, label="What", coerce=int, empty_value=None)
    action = forms.ChoiceField(required=False, label="Action")
    since = forms.DateField(required=False, label="From", widget=forms.DateInput(attrs={"type": "date"}))
    until = forms.DateField(required=False, label="To", widget=forms.DateInput(attrs={"type": "date"}))
    # Not "q": that is the navbar's search box, which would show it.
    name = forms.CharField(required=False, max_length=128, label="Name contains",
                        widget=forms.TextInput(attrs={"type": "search", "placeholder": "PROD1"}))

    def __init__(self, data: Any, *, choices: AuditFilterChoices) -> None:
        super().__init__(data)
        form_field(self, "actor", forms.ChoiceField).choices = [("", "everyone"), *((a, a) for a in choices.actors)]
        form_field(self, "target", forms.ChoiceField).choices = [("", "all targets"), *((t, t) for t in choices.targets)]
        form_field(self, "type", forms.ChoiceField).choices = [("", "every kind"), *((ct.pk, _kind(ct)) for ct in choices.content_types)]
        changes = [(key, verb) for key, verb in (("create", "created"), ("update", "changed"), ("delete", "deleted"))
                   if key in CHANGE_ACTIONS]
        actions = [("model changes", changes)]
        if choices.actions:
            actions.append(("actions", [(name, name) for name in choices.actions]))
        form_field(self, "action", forms.ChoiceField).choices = [("", "every action"), *actions]

    def clean(self) -> dict[str, Any]:
        super().clean()  # Form.clean returns cleaned_data (typed optional by django-stubs)
        cleaned = self.cleaned_data
        since, until = cleaned.get("since"), cleaned.get("until")
        if since and until and since > until:
            self.add_error("until", f"To ({until}) is before From ({since}).")
        return cleaned

    def filters(self) -> dict[str, Any]:
        """The audit_entry_list arguments of the valid fields (an invalid one is left out)."""
        self.is_valid()
        data = {name: self.cleaned_data.get(name) for name in self.fields if name not in self.errors}
        return {
            "actor_name": data.get("actor") or "", "target_name": data.get("target") or "",
            "content_type_id": data.get("type"), "action": data.get("action") or "",
            "since": data.get("since"), "until": data.get("until"), "text": (data.get("name") or "").strip(),
        }

    def error_lines(self) -> list[str]:
        """One line per invalid filter, naming it."""
        return [f"{self.fields[name].label}: {' '.join(str(error) for error in errors)} (filter ignored)"
                for name, errors in self.errors.items() if name in self.fields]


def _kind(content_type: Any) -> str:
    """A kind of object as the filter names it; the log's own entries are the actions about no object
    (tier presets, a command that failed before it named a target)."""
    return "actions on no object" if content_type.model_class() is AuditLogEntry else str(content_type.name)
