"""The recommendation tables' filters, sort and page size (GET), as the target and recommendations pages
and the API read them."""

from __future__ import annotations

from collections.abc import Mapping

from django import forms
from django.http import QueryDict

from apps.core.form_fields import form_field
from apps.dashboard.recommendations.selectors import DEFAULT_SORT, SORTS, FilterChoices, RecommendationFilter

PAGE_SIZES = (25, 50, 100, 200)
DEFAULT_PAGE_SIZE = 50


def _choices(values: list[str], empty: str) -> list[tuple[str, str]]:
    return [("", empty), *((v, v) for v in values)]


class RecommendationFilterForm(forms.Form):
    """Filters, sort and page size of the segment tables; unknown values are ignored, not errors."""

    name = forms.CharField(required=False, max_length=128, label="Name contains",
                           widget=forms.TextInput(attrs={"placeholder": "OWNER.NAME", "type": "search"}))
    owner = forms.ChoiceField(required=False)
    object_type = forms.ChoiceField(required=False, label="Type")
    tablespace = forms.ChoiceField(required=False)
    tier = forms.ChoiceField(required=False, label="Recommended tier")
    action = forms.ChoiceField(required=False)
    min_intensity = forms.FloatField(required=False, min_value=0, label="Min IO intensity (IO/s per GB)",
                                     widget=forms.NumberInput(attrs={"step": "any", "placeholder": "0"}))
    sort = forms.ChoiceField(required=False, choices=[(s, s) for k in SORTS for s in (k, f"-{k}")])
    # empty_value: any value (Django returns it as given); django-stubs types it str | None.
    per_page = forms.TypedChoiceField(required=False, coerce=int, empty_value=DEFAULT_PAGE_SIZE,  # type: ignore[arg-type]
                                      choices=[(str(n), str(n)) for n in PAGE_SIZES], label="Rows")

    def __init__(self, data: QueryDict | Mapping[str, str] | None, *, choices: FilterChoices,
                 with_action: bool = True) -> None:
        values = data.copy() if isinstance(data, QueryDict) else dict(data or {})
        if not values.get("per_page"):
            values["per_page"] = str(DEFAULT_PAGE_SIZE)  # so the drop-down shows the size in use
        super().__init__(values)
        form_field(self, "owner", forms.ChoiceField).choices = _choices(choices.owners, "all owners")
        form_field(self, "object_type", forms.ChoiceField).choices = _choices(choices.object_types, "all types")
        form_field(self, "tablespace", forms.ChoiceField).choices = _choices(choices.tablespaces, "all tablespaces")
        form_field(self, "tier", forms.ChoiceField).choices = _choices(choices.tiers, "all tiers")
        form_field(self, "action", forms.ChoiceField).choices = _choices(choices.actions, "all actions")
        if not with_action:
            del self.fields["action"]

    def filters(self) -> RecommendationFilter:
        """The valid filters; a field with a bad value counts as not set."""
        self.is_valid()
        data = {name: self.cleaned_data.get(name) for name in self.fields if name not in self.errors}
        return RecommendationFilter(
            name=(data.get("name") or "").strip(), owner=data.get("owner") or "", object_type=data.get("object_type") or "",
            tablespace=data.get("tablespace") or "", tier=data.get("tier") or "", action=data.get("action") or "",
            min_intensity=data.get("min_intensity"),
        )

    def sort_key(self) -> str:
        self.is_valid()
        return (self.cleaned_data.get("sort") if "sort" not in self.errors else None) or DEFAULT_SORT

    def page_size(self) -> int:
        self.is_valid()
        return (self.cleaned_data.get("per_page") if "per_page" not in self.errors else None) or DEFAULT_PAGE_SIZE
