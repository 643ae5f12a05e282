"""A target's recommendation pages: the target page (its overview), the recommendations page and its CSV,
Recompute, and the refresh status the pages follow. Validate input, call a selector or service, render."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.db import transaction
from django.http import HttpRequest, HttpResponse, JsonResponse, StreamingHttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.html import json_script
from django.views.decorators.http import require_GET, require_POST

from apps.core.audit import audit_event_record
from apps.dashboard import charts
from apps.dashboard.access import staff_required
from apps.dashboard.page_cache import page_body
from apps.dashboard.periods.views import page_period_context
from apps.dashboard.recommendations import run_figures, selectors, table
from apps.dashboard.selectors import block_size_bytes
from apps.dashboard.storage.selectors import storage_map_card
from apps.snapshots.selectors import database_incarnations, incarnation_current, incomplete_intervals
from apps.snapshots.storage_map import storage_map_read
from apps.targets.models import Target
from apps.tiering.models import Refresh
from apps.tiering.recommendations.export import export_csv_parts
from apps.tiering.recommendations.refreshes import refresh_enqueue
from apps.tiering.recommendations.selectors import recommendation_run_current, refresh_latest, tablespace_room_table


@require_GET
def target_detail(request: HttpRequest, name: str) -> HttpResponse:
    target = get_object_or_404(Target.objects.select_related("tier_set"), name=name)
    head = table.head(target)
    body = page_body(request, "dashboard/target_body.html", lambda: _target_body(request, target, head),
                     target_id=target.id)
    return render(request, "dashboard/target.html", {"target": target, **head, "body": body})


def _target_body(request: HttpRequest, target: Target, head: dict[str, Any]) -> dict[str, Any]:
    """What the target page shows below its head."""
    incarnations = database_incarnations(target_id=target.id)
    figures, tiers = table.figures(target, head["reco_run"])
    skew, costs = figures.skew, figures.costs
    residency = selectors.latest_residency(target_id=target.id)
    flash = selectors.flash_samples(target_id=target.id, since=selectors.window_start(run=head["reco_run"]))
    storage = storage_map_read(target_id=target.id)  # the room table's and the map card's
    block_size = block_size_bytes(target)
    context = {
        "target": target,
        **head,
        "segments_total": figures.segments_total,
        "unsized": figures.unsized,
        "scatter": figures.scatter,
        "scatter_script": figures.scatter_script(),
        "break_evens": tiers["edges"],
        "skew": skew,
        "skew_payload": {"points": skew.points, "callouts": skew.callouts},
        "skew_80": next((c for c in skew.callouts if c["io_pct"] == 80.0), None),
        "costs": costs,
        "cost_payload": charts.tier_cost_payload(costs, basis=target.tier_set.basis),
        "pooled_tiers": any(c.pool_now_usd or c.pool_after_usd for c in costs),
        "residency": residency,
        "residency_payload": charts.residency_payload(residency, block_size_bytes=block_size),
        "block_size_bytes": block_size,
        "flash": flash,
        "flash_payload": charts.flash_series_payload(flash),
        "flash_ratio": charts.flash_hit_ratio(flash),
        # A database recreated (new DBID): the page says since when its figures hold (apps.snapshots.windows).
        "incarnations": incarnations,
        "incomplete_intervals": incomplete_intervals(target_id=target.id),
        "incarnation_current": incarnation_current(incarnations),
        "room": tablespace_room_table(target_id=target.id, storage=storage),
        "storage_map": storage_map_card(target=target, storage=storage),
        **table.table_page(request, target, with_action=False, figures=figures),
        # The KPIs are the target's: the run's stored totals, whatever the table's filters.
        "totals": {**figures.totals, "capped": False},
    }
    period = page_period_context(request, target, context, compare=True)
    if "scatter" in period:  # a chosen period's scatter, in place of the run's stored one
        period["scatter_script"] = json_script(period["scatter"], "data-scatter")
    context.update(period)
    return context


@require_GET
def recommendations(request: HttpRequest, name: str) -> HttpResponseBase:
    target = get_object_or_404(Target.objects.select_related("tier_set"), name=name)
    if request.GET.get("format") == "csv":  # the rows alone: no page to count, no totals
        # The run's stored choices, as the page reads them.
        choices = run_figures.run_choices(recommendation_run_current(target_id=target.id), target=target)
        return _csv_response(target, table.filtered(request, target, with_action=True, choices=choices)[1])
    head = table.head(target)
    body = page_body(request, "dashboard/recommendations_body.html",
                     lambda: _recommendations_body(request, target, head), target_id=target.id)
    return render(request, "dashboard/recommendations.html", {"target": target, **head, "body": body})


def _recommendations_body(request: HttpRequest, target: Target, head: dict[str, Any]) -> dict[str, Any]:
    # The table's totals and choices alone: the charts' figures are the target page's.
    figures = run_figures.table_figures(head["reco_run"], target_id=target.id,
                                        tier_set=target.tier_set_id)  # type: ignore[arg-type]  # NOT NULL: django-stubs types a foreign key with a default as nullable
    context = {"target": target, **head, **table.table_page(request, target, with_action=True, figures=figures)}
    context.update(page_period_context(request, target, context))
    return context


def _csv_response(target: Target, recs: Any) -> StreamingHttpResponse:
    """Exactly `manage.py recommend <target> --format csv`, restricted to the filtered rows; streamed."""
    response = StreamingHttpResponse(export_csv_parts(recs, target), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="tierscope-{target.name}-recommendations.csv"'
    return response


@require_POST
@staff_required
def recompute(request: HttpRequest, name: str) -> HttpResponse:
    """Recompute the target's recommendations from its stored snapshots (after a tablespace map or tier
    change; any mode): a refresh queued like the one after a run, shown on the target page as it runs."""
    target = get_object_or_404(Target, name=name)
    with transaction.atomic():
        refresh = refresh_enqueue(target_id=target.id)
    refresh.refresh_from_db()  # the broker may have refused it once committed
    if refresh.status == Refresh.Status.FAILED:
        audit_event_record(actor=request.user, action="recompute", target=target, outcome=f"not queued: {refresh.error}")
        messages.error(request, f"Recompute of {target.name} not queued: {refresh.error}")
    else:
        audit_event_record(actor=request.user, action="recompute", target=target, outcome=f"queued as refresh {refresh.id}")
        messages.info(request, f"Recompute of {target.name} queued (refresh {refresh.id}): its recommendations are "
                               "rebuilt from the snapshots stored, with the current tablespace map and tier prices.")
    return redirect("dashboard:target", name=target.name)


@require_GET
def refresh_status(request: HttpRequest, name: str) -> JsonResponse:
    """The target's latest refresh, for its page to follow a Recompute."""
    target = get_object_or_404(Target, name=name)
    refresh = refresh_latest(target_id=target.id)
    if refresh is None:
        return JsonResponse({"status": "", "done": True})
    pending = refresh.status in (Refresh.Status.QUEUED, Refresh.Status.RUNNING)
    return JsonResponse({
        "id": refresh.id, "status": refresh.status, "error": refresh.error, "done": not pending,
        "recommendations": refresh.recommendations, "queued_at": refresh.queued_at.isoformat(),
        "finished_at": refresh.finished_at and refresh.finished_at.isoformat(),
    })
