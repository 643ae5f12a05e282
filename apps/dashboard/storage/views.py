"""The storage map's form (admins): map a disk group or mount point of a target to a tier, say whether the
array pool behind it tiers by itself, or declare a mount point; then the recommendations are recomputed."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.views.decorators.http import require_POST

from apps.core.audit import audit_event_record
from apps.core.form_fields import form_field
from apps.dashboard.access import staff_required
from apps.snapshots.storage_map import storage_location_save
from apps.targets.models import Target
from apps.targets.storage import LocationError, location_name_parse
from apps.tiering.models import Refresh, Tier
from apps.tiering.recommendations.refreshes import refresh_enqueue


class StorageLocationForm(forms.Form):
    """A location as the DBA types it, a tier of the target's set (empty: not mapped), array tiering."""

    location = forms.CharField(max_length=513, help_text="disk group (+DATA) or mount point (/u03)")
    tier = forms.ModelChoiceField(queryset=Tier.objects.none(), required=False, empty_label="not mapped")
    array_tiering = forms.BooleanField(required=False)

    def __init__(self, *args: Any, target: Target, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.target = target
        # Only the target's set: a tier of another set is "not one of the available choices".
        form_field(self, "tier", forms.ModelChoiceField).queryset = Tier.objects.filter(tier_set_id=target.tier_set_id)

    def clean_location(self) -> str:
        try:
            return location_name_parse(self.cleaned_data["location"])[0]
        except LocationError as error:
            raise ValidationError(str(error)) from None


@require_POST
@staff_required
def storage_location(request: HttpRequest, name: str) -> HttpResponse:
    """Save what the admin said of one location, then queue a recompute (as the Recompute button does)."""
    target = get_object_or_404(Target.objects.select_related("tier_set"), name=name)
    form = StorageLocationForm(request.POST, target=target)
    if not form.is_valid():
        problems = "; ".join(f"{field}: {' '.join(str(error) for error in errors)}" for field, errors in form.errors.items())
        messages.error(request, f"Storage map of {target.name} not changed: {problems}")
        return redirect(f"{target_url(target)}#storage-map")
    tier = form.cleaned_data["tier"]
    try:
        with transaction.atomic():
            location = storage_location_save(target=target, name=form.cleaned_data["location"],
                                             tier_id=tier.id if tier else None,
                                             array_tiering=form.cleaned_data["array_tiering"])
            refresh = refresh_enqueue(target_id=target.id)
    except ValidationError as error:
        messages.error(request, f"Storage map of {target.name} not changed: {' '.join(error.messages)}")
        return redirect(f"{target_url(target)}#storage-map")
    refresh.refresh_from_db()  # the broker may have refused it once committed
    said = (f"{location.name} → {tier.name if tier else 'not mapped'}"
            f"{', its array tiers by itself' if location.array_tiering else ''}")
    if refresh.status == Refresh.Status.FAILED:
        audit_event_record(actor=request.user, action="recompute", target=target, detail=said,
                           outcome=f"not queued: {refresh.error}")
        messages.error(request, f"Storage map of {target.name}: {said}; recompute not queued: {refresh.error}")
    else:
        audit_event_record(actor=request.user, action="recompute", target=target, detail=said,
                           outcome=f"queued as refresh {refresh.id}")
        messages.info(request, f"Storage map of {target.name}: {said}. Recompute queued (refresh {refresh.id}): "
                               "the tablespaces' tiers follow their locations unless the hand map names theirs.")
    return redirect(f"{target_url(target)}#storage-map")


def target_url(target: Target) -> str:
    return reverse("dashboard:target", args=[target.name])
