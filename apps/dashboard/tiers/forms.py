"""The tier editor (admins): a tier's figures, refused with the reason when the cost model cannot price them."""

from __future__ import annotations

from django import forms

from apps.tiering import costmodel
from apps.tiering.models import Tier
from apps.tiering.tiers import tier_to_model


class TierForm(forms.ModelForm):
    class Meta:
        model = Tier
        fields = [
            "name", "tier_set", "kind", "device_cost_usd", "device_gb", "device_iops", "usd_per_gb",
            "usd_per_iops", "included_iops", "iops_per_gb", "volume_min_gb", "volume_max_gb", "volume_max_iops",
            "max_iops_per_gb", "max_devices", "max_gb", "read_latency_ms", "throughput_mb_s", "throughput_source",
            "is_flash", "price_source", "priced_on", "note",
        ]
        widgets = {"priced_on": forms.DateInput(attrs={"type": "date"})}

    def clean(self) -> dict:
        """Reject figures the cost model cannot price, naming the tier and the problem."""
        super().clean()  # Form.clean returns cleaned_data (typed optional by django-stubs)
        cleaned = self.cleaned_data
        if not self.errors:
            candidate = Tier(**{k: v for k, v in cleaned.items()})
            try:
                candidate_model = tier_to_model(candidate)
                candidate_model.intensity  # noqa: B018 -- proves $/GB and $/IOPS are usable
            except (costmodel.CostModelError, ArithmeticError, TypeError) as exc:
                raise forms.ValidationError(f"These figures cannot be priced: {exc}") from exc
        return cleaned
