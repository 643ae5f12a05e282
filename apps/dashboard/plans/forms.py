"""The form that makes a plan: selected recommendations, all worth moving, or a budget of N GB on a tier."""

from __future__ import annotations

from django import forms

from apps.core.form_fields import form_field
from apps.tiering.models import Tier

MODES = [
    ("selected", "the recommendations ticked below"),
    ("worth", "all worth moving (every current move)"),
    ("budget", "a budget of N GB on a tier (the moves onto it with the most saving per GB that fit)"),
]


class PlanCreateForm(forms.Form):
    mode = forms.ChoiceField(choices=MODES, widget=forms.RadioSelect, initial="selected", label="Plan")
    segments = forms.TypedMultipleChoiceField(coerce=int, required=False, widget=forms.CheckboxSelectMultiple)
    budget_gb = forms.FloatField(required=False, min_value=0.001, label="Budget (GB)",
                                 widget=forms.NumberInput(attrs={"step": "any", "placeholder": "500"}))
    budget_tier = forms.ModelChoiceField(queryset=Tier.objects.none(), required=False, label="on tier")
    note = forms.CharField(max_length=300, required=False, label="Note",
                           widget=forms.TextInput(attrs={"placeholder": "change ticket, window, ..."}))

    def __init__(self, *args, segment_ids: list[int], tier_set_id: str, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        form_field(self, "segments", forms.ChoiceField).choices = [(i, str(i)) for i in segment_ids]
        form_field(self, "budget_tier", forms.ModelChoiceField).queryset = Tier.objects.filter(tier_set_id=tier_set_id).order_by("name")

    def clean(self) -> dict:
        super().clean()  # Form.clean returns cleaned_data (typed optional by django-stubs)
        cleaned = self.cleaned_data
        mode = cleaned.get("mode")
        if mode == "selected" and not cleaned.get("segments"):
            raise forms.ValidationError("Tick at least one recommendation, or choose another way to plan.")
        if mode == "budget" and (cleaned.get("budget_gb") is None or cleaned.get("budget_tier") is None):
            raise forms.ValidationError("A budget needs its GB and its tier.")
        return cleaned
