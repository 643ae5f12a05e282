"""Dashboard pages: validate input, call a selector or service, render (no ORM beyond get_object_or_404)."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse, StreamingHttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils.html import json_script
from django.views.decorators.http import require_GET, require_POST

from apps.core.audit import audit_event_record
from apps.dashboard import charts, fleet_selectors, run_figures, selectors
from apps.dashboard.budget.views import budget_card
from apps.dashboard.formatting import fmt_duration
from apps.dashboard.forms import RecommendationFilterForm, TierForm
from apps.dashboard.hidden import fold_oracle_maintained
from apps.dashboard.keyset import BadCursor, keyset_page
from apps.dashboard.page_cache import page_body
from apps.dashboard.periods.views import page_period_context
from apps.dashboard.search import SEARCH_LIMIT, search_segments, search_targets
from apps.dashboard.segment_page import block_size_bytes, segment_body
from apps.dashboard.storage.selectors import storage_map_card
from apps.snapshots.collect_now import collect_now
from apps.snapshots.models import CollectionRun, Segment
from apps.snapshots.runs import BrokerUnavailable
from apps.snapshots.selectors import database_incarnations, incarnation_current, incomplete_intervals
from apps.snapshots.storage_map import storage_map_read
from apps.targets.models import Target
from apps.tiering.calibration.selectors import tier_calibration_catalog
from apps.tiering.models import Refresh, Tier
from apps.tiering.recommendations.export import export_csv_parts
from apps.tiering.recommendations.refreshes import refresh_enqueue
from apps.tiering.recommendations.selectors import (
    recommendation_run_current,
    recommendation_window,
    refresh_latest,
    tablespace_room_table,
)
from apps.tiering.tiers import tier_presets_install

View = Callable[..., HttpResponse]


def staff_required(view: View) -> View:
    """Admins only (is_staff); everyone else gets 403 rather than a login loop."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.is_staff:
            raise PermissionDenied("This needs the admin role.")
        return view(request, *args, **kwargs)

    return wrapper


@require_GET
def fleet(request: HttpRequest) -> HttpResponse:
    rows = fleet_selectors.fleet_overview()
    return render(request, "dashboard/fleet.html", {"rows": rows, "totals": fleet_selectors.fleet_totals(rows),
                                                    **budget_card(request)})


def _filtered(request: HttpRequest, target: Target, *, with_action: bool,
              choices: selectors.FilterChoices | None = None) -> tuple[RecommendationFilterForm, Any]:
    """The filter form and the current recommendations it selects (``choices``: the run's stored ones)."""
    form = RecommendationFilterForm(
        request.GET, choices=choices or selectors.recommendation_filter_choices(target_id=target.id),
        with_action=with_action,
    )
    return form, selectors.recommendation_filtered(target_id=target.id, filters=form.filters())


def _head(target: Target) -> dict[str, Any]:
    """What the head of a target's pages shows: the last run, the current recommendations and their window
    (the span their figures cover, which the IOPS labels name), and the latest refresh (a Recompute's)."""
    run = recommendation_run_current(target_id=target.id)
    window = recommendation_window(run=run)
    return {"last_run": selectors.target_last_run(target_id=target.id), "reco_run": run, "window": window,
            "iops_label": f"IOPS ({window.words})" if window else "IOPS",
            "refresh": refresh_latest(target_id=target.id),
            "basis": target.tier_set.basis}  # money per month: the target's set's billing basis


def _figures(target: Target, run: Any) -> tuple[run_figures.RunFigures, dict[str, Any]]:
    """The current run's stored figures (computed once, apps.dashboard.run_figures) and the tier set's inputs."""
    tiers = run_figures.tier_inputs(tier_set=target.tier_set_id)  # type: ignore[arg-type]  # NOT NULL: django-stubs types a foreign key with a default as nullable
    return run_figures.run_figures(run, target_id=target.id, **tiers), tiers


def _table_page(request: HttpRequest, target: Target, *, with_action: bool,
                figures: run_figures.RunFigures | run_figures.TableFigures) -> dict[str, Any]:
    """Filter form, one keyset page in the chosen order, and totals, shared by the target and recommendations
    pages. Unfiltered totals are the run's stored ones; filtered ones are summed over at most
    FILTERED_TOTALS_CAP rows (``capped``: more match, the sums are not shown)."""
    form, filtered = _filtered(request, target, with_action=with_action, choices=figures.choices)
    filters_set = form.filters() != selectors.RecommendationFilter()
    # Unfiltered, the rows folded away are the run's stored count (apps.dashboard.run_figures).
    folded = fold_oracle_maintained(filtered, params=request.GET, owner=form.filters().owner,
                                    hidden=None if filters_set else figures.hidden)
    sort = form.sort_key()
    note = ""
    try:
        before = {"": None, "end": ""}.get(request.GET.get("before", ""), request.GET.get("before"))
        page = keyset_page(folded.rows, sort=sort, size=form.page_size(), after=request.GET.get("after") or None,
                           before=before)
    except BadCursor as exc:
        note = f"Page link ignored ({exc}): showing the first page."
        page = keyset_page(folded.rows, sort=sort, size=form.page_size())
    selectors.lob_indexes_attach(page.rows)
    totals = selectors.recommendation_totals_capped(filtered) if filters_set else {**figures.totals, "capped": False}
    return {"form": form, "page": page, "sort": sort, "filtered": filtered, "totals": totals, "table_totals": totals,
            "filters_set": filters_set, "page_note": note, "folded": folded}


@require_GET
def target_detail(request: HttpRequest, name: str) -> HttpResponse:
    target = get_object_or_404(Target.objects.select_related("tier_set"), name=name)
    head = _head(target)
    body = page_body(request, "dashboard/target_body.html", lambda: _target_body(request, target, head),
                     target_id=target.id)
    return render(request, "dashboard/target.html", {"target": target, **head, "body": body})


def _target_body(request: HttpRequest, target: Target, head: dict[str, Any]) -> dict[str, Any]:
    """What the target page shows below its head."""
    incarnations = database_incarnations(target_id=target.id)
    figures, tiers = _figures(target, head["reco_run"])
    skew, costs = figures.skew, figures.costs
    residency = selectors.latest_residency(target_id=target.id)
    flash = selectors.flash_samples(target_id=target.id, since=selectors.window_start(run=head["reco_run"]))
    storage = storage_map_read(target_id=target.id)  # the room table's and the map card's
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
        "residency_payload": charts.residency_payload(residency, block_size_bytes=block_size_bytes(target)),
        "block_size_bytes": block_size_bytes(target),
        "flash": flash,
        "flash_payload": charts.flash_series_payload(flash),
        "flash_ratio": charts.flash_hit_ratio(flash),
        # A database recreated (new DBID): the page says since when its figures hold (apps.snapshots.windows).
        "incarnations": incarnations,
        "incomplete_intervals": incomplete_intervals(target_id=target.id),
        "incarnation_current": incarnation_current(incarnations),
        "room": tablespace_room_table(target_id=target.id, storage=storage),
        "storage_map": storage_map_card(target=target, storage=storage),
        **_table_page(request, target, with_action=False, figures=figures),
        # The KPIs are the target's: the run's stored totals, whatever the table's filters.
        "totals": {**figures.totals, "capped": False},
    }
    period = page_period_context(request, target, context, compare=True)
    if "scatter" in period:  # a chosen period's scatter, in place of the run's stored one
        period["scatter_script"] = json_script(period["scatter"], "data-scatter")
    context.update(period)
    return context


@require_GET
def segment_detail(request: HttpRequest, name: str, segment_id: int) -> HttpResponse:
    target = get_object_or_404(Target.objects.select_related("tier_set"), name=name)
    segment = get_object_or_404(Segment, pk=segment_id, target=target)
    body = page_body(request, "dashboard/segment_body.html", lambda: segment_body(request, target, segment),
                     target_id=target.id, segment_id=segment.id)
    label = selectors.segment_label(segment.owner, segment.object_name, segment.subobject_name,
                                    segment.parent_partition, segment.container)
    return render(request, "dashboard/segment.html", {"target": target, "segment": segment, "label": label,
                                                      "body": body})


@require_GET
def recommendations(request: HttpRequest, name: str) -> HttpResponseBase:
    target = get_object_or_404(Target.objects.select_related("tier_set"), name=name)
    if request.GET.get("format") == "csv":  # the rows alone: no page to count, no totals
        # The run's stored choices, as the page reads them.
        choices = run_figures.run_choices(recommendation_run_current(target_id=target.id), target=target)
        return _csv_response(target, _filtered(request, target, with_action=True, choices=choices)[1])
    head = _head(target)
    body = page_body(request, "dashboard/recommendations_body.html",
                     lambda: _recommendations_body(request, target, head), target_id=target.id)
    return render(request, "dashboard/recommendations.html", {"target": target, **head, "body": body})


def _recommendations_body(request: HttpRequest, target: Target, head: dict[str, Any]) -> dict[str, Any]:
    # The table's totals and choices alone: the charts' figures are the target page's.
    figures = run_figures.table_figures(head["reco_run"], target_id=target.id,
                                        tier_set=target.tier_set_id)  # type: ignore[arg-type]  # NOT NULL: django-stubs types a foreign key with a default as nullable
    context = {"target": target, **head, **_table_page(request, target, with_action=True, figures=figures)}
    context.update(page_period_context(request, target, context))
    return context


def _csv_response(target: Target, recs: Any) -> StreamingHttpResponse:
    """Exactly `manage.py recommend <target> --format csv`, restricted to the filtered rows; streamed."""
    response = StreamingHttpResponse(export_csv_parts(recs, target), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="tierscope-{target.name}-recommendations.csv"'
    return response


@require_GET
def runs(request: HttpRequest) -> HttpResponse:
    context = {"runs": fleet_selectors.run_list(), "live_targets": fleet_selectors.live_targets()}
    return render(request, "dashboard/runs.html", context)


@require_GET
def run_status(request: HttpRequest, run_id: int) -> JsonResponse:
    try:
        run = fleet_selectors.run_get(run_id=run_id)
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
    run = fleet_selectors.run_get(run_id=run.id)
    if wants_json:
        row_html = render_to_string("dashboard/includes/run_row.html", {"run": run}, request=request)
        return JsonResponse({**_run_json(run), "row_html": row_html}, status=202)
    messages.info(request, f"Collection of {target.name} queued (run {run.id}).")
    return redirect("dashboard:runs")


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


@require_GET
def tiers(request: HttpRequest) -> HttpResponse:
    return render(request, "dashboard/tiers.html", {"sets": fleet_selectors.tier_catalog(),
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


@require_GET
def search(request: HttpRequest) -> HttpResponse:
    """Segments and targets by part of their name (the navbar's search box); at least 2 characters."""
    text = request.GET.get("q", "").strip()[:128]
    ready = len(text) >= 2
    return render(request, "dashboard/search.html", {
        "q": text, "too_short": bool(text) and not ready, "limit": SEARCH_LIMIT,
        "segments": search_segments(text) if ready else [], "targets": search_targets(text) if ready else [],
    })
