"""The runs page: the collection runs with their refreshes, a run's status as JSON for the page to follow, and
Collect now (admins)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.views.decorators.http import require_GET, require_POST

from apps.dashboard.access import staff_required
from apps.dashboard.formatting import fmt_duration
from apps.dashboard.runs import selectors
from apps.snapshots.collect_now import collect_now
from apps.snapshots.models import CollectionRun
from apps.snapshots.runs import BrokerUnavailable
from apps.targets.models import Target


@require_GET
def runs(request: HttpRequest) -> HttpResponse:
    context = {"runs": selectors.run_list(), "live_targets": selectors.live_targets()}
    return render(request, "dashboard/runs.html", context)


@require_GET
def run_status(request: HttpRequest, run_id: int) -> JsonResponse:
    try:
        run = selectors.run_get(run_id=run_id)
    except CollectionRun.DoesNotExist:
        raise Http404(f"No run {run_id}.") from None
    return JsonResponse(_run_json(run))


def _run_json(run: CollectionRun) -> dict[str, Any]:
    refresh = run.latest_refresh
    ended = run.status in (CollectionRun.Status.SUCCEEDED, CollectionRun.Status.FAILED, CollectionRun.Status.SKIPPED)
    return {
        "id": run.id, "target": run.target.name, "status": run.status, "trigger": run.trigger,
        "queued_at": run.queued_at.isoformat(), "started_at": run.started_at and run.started_at.isoformat(),
        "finished_at": run.finished_at and run.finished_at.isoformat(), "snapshots_added": run.snapshots_added,
        "rows_added": run.rows_added, "duration_s": run.duration_s, "duration": fmt_duration(run.duration_s),
        "error": run.error, "refresh_status": refresh.status if refresh else "",
        "refresh_error": refresh.error if refresh else "",
        # Done once the run has ended and the refresh after it (if any) too.
        "done": ended and not (refresh and refresh.status in ("queued", "running")),
    }


@require_POST
@staff_required
def run_collect(request: HttpRequest, name: str) -> HttpResponse:
    """Enqueue a collection now; JSON (with the new table row) for fetch(), else back to /runs/.

    With the broker down it answers at once (503 for fetch(), a message otherwise); the run is
    recorded as failed with the reason, never left queued.
    """
    target = get_object_or_404(Target, name=name)
    wants_json = "application/json" in request.headers.get("Accept", "")
    try:
        run = collect_now(target=target, actor=request.user)
    except BrokerUnavailable as exc:
        if wants_json:
            return JsonResponse({"error": str(exc)}, status=503)
        messages.error(request, f"Collection of {target.name} not queued: {exc}")
        return redirect("dashboard:runs")
    run = selectors.run_get(run_id=run.id)
    if wants_json:
        row_html = render_to_string("dashboard/includes/run_row.html", {"run": run}, request=request)
        return JsonResponse({**_run_json(run), "row_html": row_html}, status=202)
    messages.info(request, f"Collection of {target.name} queued (run {run.id}).")
    return redirect("dashboard:runs")
