"""Move plans: the list and one plan with its steps (viewers), making one and moving it through its states
(admins: the plan pages' services, written to the audit log as the pages' are), and its SQL*Plus script."""

from __future__ import annotations

from django.http import Http404, HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import status
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.response import Response

from apps.api.errors import BadRequest
from apps.api.filters import PlanFilter
from apps.api.plan_serializers import PlanCreateSerializer, PlanSerializer, PlanStateSerializer, PlanStepSerializer
from apps.api.views.base import ApiGenericView, ApiListView, ApiView
from apps.targets.models import Target
from apps.tiering.models import Tier
from apps.tiering.plans import selectors, services
from apps.tiering.plans.models import Plan, PlanStep
from apps.tiering.plans.steps import PlanError


def _plan_or_404(plan_id: int) -> Plan:
    try:
        return Plan.objects.select_related("target").get(pk=plan_id)
    except Plan.DoesNotExist:
        raise Http404(f"No plan {plan_id}.") from None


@extend_schema_view(get=extend_schema(operation_id="plans_list", summary="List move plans",
                                      description="Newest first; filter by target and state."))
class PlanList(ApiListView):
    serializer_class = PlanSerializer
    filterset_class = PlanFilter

    def rows(self):
        return selectors.plan_list()

    @extend_schema(operation_id="plan_create", summary="Make a draft plan (admins)", request=PlanCreateSerializer,
                   responses={201: PlanSerializer, 400: OpenApiResponse(description="nothing can be planned as asked")})
    def post(self, request):
        body = PlanCreateSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        target = Target.objects.select_related("tier_set").filter(name=data["target"]).first()
        if target is None:
            raise BadRequest("target", f"no target named {data['target']!r}")
        tier = None
        if data["mode"] == "budget":
            tier = Tier.objects.filter(tier_set_id=target.tier_set_id, name=data["budget_tier"]).first()
            if tier is None:
                raise BadRequest("budget_tier", f"no tier {data['budget_tier']!r} in set {target.tier_set_id!r} "
                                                f"of target {target.name}")
        try:
            plan = services.plan_create(
                target=target, author=request.user, author_name=request.user.get_username(),
                segment_ids=data["segments"] if data["mode"] == "selected" else None,
                all_worth_moving=data["mode"] == "worth",
                budget_gb=data["budget_gb"] if data["mode"] == "budget" else None, budget_tier=tier,
                note=data.get("note", ""),
            )
        except PlanError as exc:
            field = {"selected": "segments", "budget": "budget_gb"}.get(data["mode"], "mode")
            raise BadRequest(field, str(exc)) from None
        return Response(PlanSerializer(_plan_or_404(plan.pk)).data, status=status.HTTP_201_CREATED)


class PlanDetail(ApiGenericView):
    serializer_class = PlanSerializer

    @extend_schema(operation_id="plan_get", summary="One move plan")
    def get(self, request, plan_id: int):
        return Response(PlanSerializer(_plan_or_404(plan_id)).data)


@extend_schema_view(get=extend_schema(operation_id="plan_steps_list", summary="A plan's steps",
                                      description="In the order they run."))
class PlanSteps(ApiListView):
    serializer_class = PlanStepSerializer
    schema_model = PlanStep

    def rows(self):
        return selectors.plan_steps_list(plan_id=_plan_or_404(self.kwargs["plan_id"]).pk)


class PlanState(ApiView):
    @extend_schema(operation_id="plan_state", summary="Approve a plan, or mark it executed or verified (admins)",
                   request=PlanStateSerializer,
                   responses={200: PlanSerializer,
                              409: OpenApiResponse(description="not from its state, or approved by its author")})
    def post(self, request, plan_id: int):
        plan = _plan_or_404(plan_id)
        body = PlanStateSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        try:
            services.plan_transition(plan_id=plan.pk, to=body.validated_data["to"], user=request.user)
        except PlanError as exc:
            return Response({"detail": str(exc), "where": f"{request.method} {request.path}"},
                            status=status.HTTP_409_CONFLICT)
        return Response(PlanSerializer(_plan_or_404(plan.pk)).data)


class SqlRenderer(BaseRenderer):
    """The script as text; errors before it still answer JSON."""

    media_type = "application/sql"
    format = "sql"
    charset = "utf-8"

    def render(self, data, accepted_media_type=None, renderer_context=None):
        return data if isinstance(data, (str, bytes)) else JSONRenderer().render(data)


class PlanScript(ApiView):
    renderer_classes = [JSONRenderer, SqlRenderer]

    @extend_schema(operation_id="plan_script", summary="A plan's SQL*Plus script",
                   description="As the plan page's export: it checks the database's DBID before any step, and "
                               "says so at its head when the plan is not approved.",
                   responses={(200, "application/sql"): OpenApiTypes.STR})
    def get(self, request, plan_id: int):
        plan = _plan_or_404(plan_id)
        response = HttpResponse(selectors.plan_export(plan=plan, fmt="sql"),
                                content_type="application/sql; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="tierscope_plan_{plan.pk}_{plan.target.name}.sql"'
        return response
