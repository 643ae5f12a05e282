"""The tiers page: the tier catalog by tier set, a tier's editor and the presets' install (admins)."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_POST

from apps.core.audit import audit_event_record
from apps.dashboard.access import staff_required
from apps.dashboard.tiers import selectors
from apps.dashboard.tiers.forms import TierForm
from apps.tiering.calibration.selectors import tier_calibration_catalog
from apps.tiering.models import Tier
from apps.tiering.tiers import tier_presets_install


@require_GET
def tiers(request: HttpRequest) -> HttpResponse:
    return render(request, "dashboard/tiers.html", {"sets": selectors.tier_catalog(),
                                                    "calibrations": tier_calibration_catalog()})


@staff_required
def tier_edit(request: HttpRequest, tier_id: int) -> HttpResponse:
    tier = get_object_or_404(Tier, pk=tier_id)
    form = TierForm(request.POST or None, instance=tier)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, f"Saved tier {tier.name}. Recommendations use it from each target's next "
                                  "collection or import, or now with Recompute on the target's page.")
        return redirect("dashboard:tiers")
    return render(request, "dashboard/tier_edit.html", {"form": form, "tier": tier})


@require_POST
@staff_required
def tier_presets(request: HttpRequest) -> HttpResponse:
    notes = tier_presets_install()
    audit_event_record(actor=request.user, action="tier presets", outcome="; ".join(notes) or "none missing")
    messages.success(request, "; ".join(notes) if notes else "All preset tiers were already installed.")
    return redirect("dashboard:tiers")
