"""The period picker's part of the target, segment and recommendations pages, and the compare-two-periods page."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET

from apps.dashboard.periods.charts import period_chart_context
from apps.dashboard.periods.compare import CompareForm, compare_page
from apps.dashboard.periods.selectors import page_period, period_context
from apps.snapshots.periods import period_bounds
from apps.targets.models import Target


def page_period_context(request: HttpRequest, target: Target, context: dict[str, Any], *, compare: bool = False,
                        segment_ids: tuple[int, ...] = ()) -> dict[str, Any]:
    """The period picker's context for a page whose ``context`` is built: the figures of its table's rows
    (``context["page"]``) and of ``segment_ids`` over the chosen period; ``compare``: link the comparison."""
    page = context.get("page")
    period = page_period(request, target_id=target.id, rows=page.rows if page else [], segment_ids=list(segment_ids))
    extra = {}
    if compare:  # the target page: its charts of measured IO too
        extra = period_chart_context(period, target_id=target.id, run=context.get("reco_run"),
                                     scatter=context.get("scatter") or {})
    return {**period_context(period, iops_label=context.get("iops_label", "IOPS")), **extra,
            "compare_url": reverse("dashboard:compare_periods", args=[target.name]) if compare else ""}


@require_GET
def compare_periods(request: HttpRequest, name: str) -> HttpResponse:
    """Two periods of a target compared per segment: whose IO changed most, new and gone segments."""
    target = get_object_or_404(Target.objects.select_related("tier_set"), name=name)
    bounds = period_bounds(target_id=target.id, now=timezone.now())
    form = CompareForm(request.GET, bounds=bounds)
    error = ""
    if not form.is_valid():
        error = "; ".join(" ".join(map(str, messages)) for messages in form.errors.values())
        if bounds is not None:
            error += " Showing the default periods: the last 7 days against the 7 days before."
        kept = QueryDict(mutable=True)
        for key in ("stat", "sort", "show", "q"):
            if key not in form.errors and request.GET.get(key):
                kept[key] = request.GET[key]
        form = CompareForm(kept, bounds=bounds)
        form.is_valid()
    context: dict[str, Any] = {"target": target, "form": form, "error": error, "bounds": bounds}
    if bounds is not None:
        context.update(compare_page(target_id=target.id, form=form, page_number=request.GET.get("page")))
    return render(request, "dashboard/compare_periods.html", context)
