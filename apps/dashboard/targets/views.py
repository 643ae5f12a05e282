"""The targets page for admins (/manage/targets/): list, add, edit, test the connection, delete.

Collect now is the runs page's endpoint (dashboard:collect) and import the snapshots app's page; every write
goes through the admin's form, so django-auditlog records it with the user, as in the admin.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.db import transaction
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_http_methods, require_POST

from apps.core.audit import audit_event_record
from apps.dashboard.access import staff_required
from apps.dashboard.targets.forms import TargetDeleteForm, TargetPageForm
from apps.dashboard.targets.selectors import CHECK_BADGE, collect_schedule, target_delete_summary, target_rows
from apps.targets.deletion import target_delete_request
from apps.targets.feeding import feeding_explanation
from apps.targets.models import Target, TargetCheck
from apps.targets.services import target_check_enqueue


@require_http_methods(["GET"])
@staff_required
def targets_manage(request: HttpRequest) -> HttpResponse:
    now = timezone.now()
    return render(request, "dashboard/targets.html", {
        "rows": target_rows(now=now), "schedule": collect_schedule(), "now": now})


@require_http_methods(["GET", "POST"])
@staff_required
def target_add(request: HttpRequest) -> HttpResponse:
    return _target_form_page(request, None)


@require_http_methods(["GET", "POST"])
@staff_required
def target_edit(request: HttpRequest, name: str) -> HttpResponse:
    return _target_form_page(request, get_object_or_404(Target, name=name))


def _target_form_page(request: HttpRequest, target: Target | None) -> HttpResponse:
    """The add form (no target) or a target's edit form; a valid post saves and goes back to the targets page."""
    form = TargetPageForm(request.POST or None, instance=target)
    if request.method == "POST" and form.is_valid():
        saved = form.save()
        if target is None:
            messages.success(request, f"Added target {saved.name} ({saved.mode}). {feeding_explanation(saved)}")
        else:
            changed = ", ".join(form.changed_data) or "nothing"
            messages.success(request, f"Saved target {saved.name} (changed: {changed}).")
        return redirect("dashboard:targets_manage")
    return render(request, "dashboard/targets_form.html", {"form": form, "target": target},
                  status=400 if request.method == "POST" else 200)


@require_http_methods(["GET", "POST"])
@staff_required
def target_delete(request: HttpRequest, name: str) -> HttpResponse:
    """A confirmation naming what goes with the target, then the delete: the target is gone at once, its data
    removed by a worker (apps.targets.deletion)."""
    target = get_object_or_404(Target, name=name)
    summary = target_delete_summary(target=target)
    form = TargetDeleteForm(request.POST or None, target=target)
    if request.method == "POST" and form.is_valid():
        what = "; ".join(f"{count} {noun}{'s' if count != 1 else ''}" for noun, count in summary) or "no data"
        with transaction.atomic():
            target_delete_request(target=target)  # gone from every page now; a worker removes its data
            audit_event_record(actor=request.user, action="delete target", target_name=name,
                               detail=what, outcome="deleted")
        messages.success(request, f"Deleted target {name}; a worker removes its {what} in the background."
                         if summary else f"Deleted target {name}.")
        return redirect("dashboard:targets_manage")
    return render(request, "dashboard/targets_delete.html", {"form": form, "target": target, "summary": summary},
                  status=400 if request.method == "POST" else 200)


def check_payload(check: TargetCheck) -> dict[str, Any]:
    """What the page shows of a check and where it follows it."""
    name = check.target.name
    return {"id": check.pk, "target": name, "status": check.status, "badge": CHECK_BADGE[check.status],
            "done": check.done, "error": check.error,
            "status_url": reverse("targets:check_status", args=[name, check.pk]),
            "page_url": reverse("targets:check", args=[name, check.pk])}


@require_POST
@staff_required
def target_check_start(request: HttpRequest, name: str) -> HttpResponse:
    """Queue a "test connection" on a worker (never connect in the request): JSON for the page's fetch(), which
    follows it on the check's status URL; a plain form post lands on the check's page."""
    target = get_object_or_404(Target, name=name)
    with transaction.atomic():
        check = target_check_enqueue(target=target, requested_by=request.user.get_username())
    check.refresh_from_db()  # sent once committed: a broker that is down failed it already
    not_queued = check.status == TargetCheck.Status.FAILED and check.started_at is None
    outcome = f"not queued: {check.error}" if not_queued else f"queued as check {check.pk}"
    audit_event_record(actor=request.user, action="test connection", target=target, outcome=outcome)
    if "application/json" in request.headers.get("Accept", ""):
        return JsonResponse(check_payload(check), status=503 if not_queued else 202)
    if not_queued:
        messages.error(request, f"Connection check of {target.name} not queued: {check.error}")
        return redirect("dashboard:targets_manage")
    return redirect("targets:check", name=target.name, check_id=check.pk)
