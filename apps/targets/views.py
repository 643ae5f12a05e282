"""Pages of the targets app."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET

from apps.targets.models import TargetCheck

# Badge classes of the stylesheet (shared with collection runs).
_BADGE = {"queued": "queued", "running": "running", "passed": "succeeded", "failed": "failed"}


def _staff_check(request: HttpRequest, name: str, check_id: int) -> TargetCheck:
    if not request.user.is_staff:
        raise PermissionDenied("Only admins can see connection checks.")
    return get_object_or_404(TargetCheck.objects.select_related("target"), pk=check_id, target__name=name)


def _check_payload(check: TargetCheck) -> dict[str, Any]:
    return {
        "id": check.pk, "target": check.target.name, "status": check.status, "badge": _BADGE[check.status],
        "done": check.done, "steps": check.steps, "error": check.error, "requested_by": check.requested_by,
        "queued_at": check.queued_at.isoformat(),
        "started_at": check.started_at.isoformat() if check.started_at else None,
        "finished_at": check.finished_at.isoformat() if check.finished_at else None,
    }


@require_GET
def target_check(request: HttpRequest, name: str, check_id: int) -> HttpResponse:
    """A "test connection" as it runs on a worker: its steps, then the verdict (admins only)."""
    check = _staff_check(request, name, check_id)
    details = "\n".join(step.get("detail", "") for step in check.steps if not step.get("ok"))
    return render(request, "targets/check.html",
                  {"check": check, "badge": _BADGE[check.status], "check_step_details": details})


@require_GET
def target_check_status(request: HttpRequest, name: str, check_id: int) -> JsonResponse:
    """The check's state for the page to poll."""
    return JsonResponse(_check_payload(_staff_check(request, name, check_id)))
