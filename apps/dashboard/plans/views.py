"""Move plan pages (apps.tiering.plans): the list, one plan with its steps, making a plan (admins), its state (admins), its exports."""

from __future__ import annotations

from django.contrib import messages
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_POST

from apps.dashboard.access import staff_required
from apps.dashboard.periods.before_after import plan_before_after, window_choice
from apps.dashboard.plans.forms import PlanCreateForm
from apps.targets.models import Target
from apps.tiering.plans import selectors, services
from apps.tiering.plans.models import Plan
from apps.tiering.plans.steps import PlanError

STEPS_PER_PAGE = 200
#: Recommendations offered for ticking on the new-plan page (largest savings first); the others are
#: planned with "all worth moving", a budget, or `manage.py plan create --segment`.
SELECTABLE = 500


@require_GET
def plan_list(request: HttpRequest) -> HttpResponse:
    return render(request, "dashboard/plan_list.html", {"plans": selectors.plan_list(),
                                                      "targets": Target.objects.order_by("name")})


@require_GET
def plan_detail(request: HttpRequest, plan_id: int) -> HttpResponse:
    plan = get_object_or_404(Plan.objects.select_related("target"), pk=plan_id)
    page = Paginator(selectors.plan_steps_list(plan_id=plan.pk), STEPS_PER_PAGE).get_page(request.GET.get("page"))
    next_state = {v: k for k, v in services.TRANSITIONS.items()}.get(plan.state)
    return render(request, "dashboard/plan_detail.html", {
        "plan": plan, "page": page, "next_state": next_state,
        "own_plan": plan.created_by_id is not None and plan.created_by_id == request.user.pk,
        **plan_before_after(plan=plan, choice=window_choice(request.GET)),
    })


@staff_required
def plan_new(request: HttpRequest, name: str) -> HttpResponse:
    target = get_object_or_404(Target.objects.select_related("tier_set"), name=name)
    offered = selectors.plannable_recommendations(target_id=target.id, limit=SELECTABLE)
    form = PlanCreateForm(request.POST or None, segment_ids=[rec.segment_id for rec in offered],
                          tier_set_id=target.tier_set_id)  # type: ignore[arg-type]  # NOT NULL: django-stubs types a foreign key with a default as nullable
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            plan = services.plan_create(
                target=target, author=request.user, author_name=request.user.get_username(),
                segment_ids=data["segments"] if data["mode"] == "selected" else None,
                all_worth_moving=data["mode"] == "worth",
                budget_gb=data["budget_gb"] if data["mode"] == "budget" else None,
                budget_tier=data["budget_tier"] if data["mode"] == "budget" else None, note=data["note"],
            )
        except PlanError as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, f"Plan {plan.pk} made: {plan.steps_count} steps, a draft until another "
                                      "admin approves it.")
            return redirect("plans:detail", plan_id=plan.pk)
    return render(request, "dashboard/plan_new.html", {"target": target, "form": form, "offered": offered,
                                                     "basis": target.tier_set.basis, "selectable": SELECTABLE})


@require_POST
@staff_required
def plan_state(request: HttpRequest, plan_id: int) -> HttpResponse:
    plan = get_object_or_404(Plan, pk=plan_id)
    try:
        services.plan_transition(plan_id=plan.pk, to=request.POST.get("to", ""), user=request.user)
    except PlanError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, f"Plan {plan.pk} is {request.POST['to']}.")
    return redirect("plans:detail", plan_id=plan.pk)


def _export(plan_id: int, fmt: str, content_type: str) -> HttpResponseBase:
    plan = get_object_or_404(Plan.objects.select_related("target"), pk=plan_id)
    response: HttpResponseBase
    if fmt == "csv":  # streamed as its steps are read: a plan of 10k moves starts at once, in flat memory
        response = StreamingHttpResponse(selectors.plan_export_csv_parts(plan=plan), content_type=content_type)
    else:
        response = HttpResponse(selectors.plan_export(plan=plan, fmt=fmt), content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="tierscope_plan_{plan.pk}_{plan.target.name}.{fmt}"'
    return response


@require_GET
def plan_export_sql(request: HttpRequest, plan_id: int) -> HttpResponseBase:
    return _export(plan_id, "sql", "application/sql; charset=utf-8")


@require_GET
def plan_export_csv(request: HttpRequest, plan_id: int) -> HttpResponseBase:
    return _export(plan_id, "csv", "text/csv; charset=utf-8")
