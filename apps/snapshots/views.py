"""Pages of the snapshots app: importing AWR reports and offline extracts into a target."""

from __future__ import annotations

from urllib.parse import quote

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_http_methods

from apps.core.audit import audit_event_record
from apps.core.config import get_config
from apps.core.uploads import upload_refusals
from apps.snapshots.forms import ExtractUploadForm, ReportUploadForm
from apps.snapshots.imports import ImportRefused, extract_import, import_outcome, report_import, upload_bytes
from apps.targets.awr_report import MAX_REPORT_BYTES, AwrReportError, decode_report
from apps.targets.models import Target


@require_http_methods(["GET", "POST"])
def target_import(request: HttpRequest, name: str) -> HttpResponse:
    """Upload an AWR report or an offline extract into a target (admins only)."""
    if not request.user.is_staff:
        raise PermissionDenied("Only admins can import into a target.")
    target = get_object_or_404(Target, name=name)
    report_form = ReportUploadForm(prefix="report")
    extract_form = ExtractUploadForm(prefix="extract")
    error = ""
    if request.method == "POST":
        kind = request.POST.get("kind")
        refused = upload_refusals(request)
        try:
            if refused:
                error = "; ".join(refused)
            elif kind == "report":
                report_form = ReportUploadForm(request.POST, request.FILES, prefix="report")
                if report_form.is_valid():
                    upload, sizes = report_form.cleaned_data["report"], report_form.cleaned_data["sizes"]
                    # Decoded as read: the upload's bytes are dropped before the text is parsed.
                    run = report_import(target=target, data=decode_report(upload_bytes(upload), filename=upload.name),
                                        filename=upload.name,
                                        sizes=upload_bytes(sizes) if sizes else None,
                                        sizes_filename=sizes.name if sizes else "segments.csv")
                    messages.success(request, import_outcome(run, f"AWR report {upload.name}"))
                    audit_event_record(actor=request.user, action="import report", target=target, detail=upload.name, outcome=import_outcome(run, upload.name))
                    return HttpResponseRedirect(f"/targets/{quote(target.name)}/")
            elif kind == "extract":
                extract_form = ExtractUploadForm(request.POST, request.FILES, prefix="extract")
                if extract_form.is_valid():
                    upload = extract_form.cleaned_data["extract"]
                    upload.seek(0)
                    run = extract_import(target=target, path_or_zip=upload,
                                         max_unpacked_bytes=get_config()["MAX_WEB_EXTRACT_BYTES"])
                    messages.success(request, import_outcome(run, f"Offline extract {upload.name}"))
                    audit_event_record(actor=request.user, action="import extract", target=target, detail=upload.name, outcome=import_outcome(run, upload.name))
                    return HttpResponseRedirect(f"/targets/{quote(target.name)}/")
            else:
                error = "Choose a form: an AWR report or an offline extract."
        except (ImportRefused, AwrReportError) as refused:
            error = str(refused)
            # values(): each key's last file (django-stubs adds list[object] to MultiValueDict's values).
            names = " ".join(str(f.name) for f in request.FILES.values())  # type: ignore[union-attr]
            audit_event_record(actor=request.user, action=f"import {kind}", target=target, detail=names, outcome=f"refused: {error}")
    status = 400 if request.method == "POST" else 200
    context = {
        "target": target, "report_form": report_form, "extract_form": extract_form, "error": error,
        "max_upload_mb": get_config()["MAX_UPLOAD_BYTES"] // (1024 * 1024),
        "max_report_mb": MAX_REPORT_BYTES // (1024 * 1024),
        "max_web_extract_mb": get_config()["MAX_WEB_EXTRACT_BYTES"] // (1024 * 1024),
    }
    return render(request, "snapshots/import.html", context, status=status)
