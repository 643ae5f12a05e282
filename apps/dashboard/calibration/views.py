"""The tier page's calibration upload (issue 17): a fio, ORION or CALIBRATE_IO file stored on the tier."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.text import slugify
from django.views.decorators.http import require_POST

from apps.core.audit import audit_event_record
from apps.core.uploads import upload_refusals
from apps.dashboard.access import staff_required
from apps.dashboard.tiers.forms import TierForm
from apps.tiering.calibration import MAX_FILE_BYTES, CalibrationError, calibration_parse
from apps.tiering.calibration.selectors import tier_set_target_names
from apps.tiering.calibration.services import tier_calibration_store
from apps.tiering.models import Tier


class CalibrationUploadForm(forms.Form):
    calibration = forms.FileField(
        label="Calibration file",
        help_text=(f"fio --output-format=json output, an ORION _summary.txt (or _iops.csv, _mbps.csv, _lat.csv) "
                   f"or a CALIBRATE_IO result; up to {MAX_FILE_BYTES // (1024 * 1024)} MB."),
    )


def _refused(request: HttpRequest, tier: Tier, error: str, file_name: str) -> HttpResponse:
    audit_event_record(actor=request.user, action="tier calibration", detail=f"tier {tier.name}: {file_name}",
                       outcome=f"refused: {error}")
    context = {"form": TierForm(instance=tier), "tier": tier, "calibration_form": CalibrationUploadForm(),
               "calibration_error": error}
    return render(request, "dashboard/tier_edit.html", context, status=400)


@require_POST
@staff_required
def tier_calibration_upload(request: HttpRequest, tier_id: int) -> HttpResponse:
    """Store an uploaded calibration on the tier; a file we cannot read is one line on the page, stored nowhere."""
    tier = get_object_or_404(Tier, pk=tier_id)
    form = CalibrationUploadForm(request.POST, request.FILES)  # parses the body: the upload handler's refusals
    refused = upload_refusals(request)
    if refused:
        return _refused(request, tier, "; ".join(refused), "")
    if not form.is_valid():
        return _refused(request, tier, "Choose a calibration file to upload.", "")
    upload = form.cleaned_data["calibration"]
    if upload.size > MAX_FILE_BYTES:
        # Said before a byte of it is read (the upload handler has already capped it at MAX_UPLOAD_BYTES).
        return _refused(request, tier, f"{upload.name}: larger than the {MAX_FILE_BYTES // (1024 * 1024)} MB a "
                                       "calibration file may be", upload.name)
    data = upload.read(MAX_FILE_BYTES + 1)
    try:
        reading = calibration_parse(data, file_name=upload.name)
    except CalibrationError as error:
        return _refused(request, tier, str(error), upload.name)
    outcome = tier_calibration_store(tier_id=tier.id, reading=reading, file_name=upload.name, data=data,
                                     actor=request.user)
    targets = tier_set_target_names(tier_set_id=tier.tier_set_id)
    follow = (f" Recommendations of {', '.join(targets)} use it from their next collection or import, or now "
              "with Recompute on each target's page." if targets and outcome.changed else "")
    messages.success(request, f"Stored {upload.name} ({reading.figures.source}) on tier {tier.name}. "
                              f"{outcome.summary()}{follow}")
    return redirect(f"{reverse('dashboard:tiers')}#set-{slugify(tier.tier_set_id)}")
