"""Across targets: the tier sets (the tiers page), the fleet budget (the fleet page's card) and the audit log
(admins, the audit page)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import serializers
from rest_framework.exceptions import ValidationError
from rest_framework.response import Response

from apps.api.budget_serializers import FleetBudgetSerializer, budget_body
from apps.api.errors import BadRequest
from apps.api.permissions import AdminOnly
from apps.api.serializers import TierSetSerializer
from apps.api.views.base import ApiListView, ApiView
from apps.core.audit import audit_entry_list
from apps.dashboard.budget.views import BudgetForm
from apps.dashboard.tiers.selectors import tier_catalog
from apps.tiering.budget.services import BudgetError, budget_tier_names


class TierSetList(ApiView):
    @extend_schema(operation_id="tier_sets_list", summary="Tier sets and their tiers",
                   responses=TierSetSerializer(many=True),
                   description="As the tiers page: each set's tiers by intensity, break-evens, billing basis and "
                               "the targets comparing it.")
    def get(self, request):
        return Response(TierSetSerializer(tier_catalog(), many=True).data)


class FleetBudgetView(ApiView):
    @extend_schema(
        operation_id="fleet_budget", summary="Split a budget of one tier across the fleet",
        responses=FleetBudgetSerializer,
        description="What the fleet page's budget card shows; nothing is remembered (making its plans is the "
                    "page's or `manage.py budget --plan`'s).",
        parameters=[OpenApiParameter("budget_tier", str, required=True, description="a tier's name"),
                    OpenApiParameter("budget_amount", float, required=True, description="GB, or USD per month"),
                    OpenApiParameter("budget_unit", str, enum=["gb", "usd"], description="default gb")])
    def get(self, request):
        names = budget_tier_names()
        params = request.query_params.copy()
        params.setdefault("budget_unit", "gb")
        form = BudgetForm(params, tier_names=names)
        if not form.is_valid():
            errors = {field: [str(e) for e in errs] for field, errs in form.errors.items()}
            if "budget_tier" in errors:
                errors["budget_tier"].append(f"the enabled targets' tiers are: {', '.join(names) or 'none'}")
            raise ValidationError(errors)
        try:
            budget = form.split()
        except BudgetError as exc:
            raise BadRequest("budget_tier", str(exc)) from None
        return Response(FleetBudgetSerializer(budget_body(budget)).data)


class AuditEntrySerializer(serializers.Serializer):
    id = serializers.IntegerField(source="pk")
    timestamp = serializers.DateTimeField()
    who = serializers.CharField()
    remote_addr = serializers.CharField(allow_null=True)
    kind = serializers.SerializerMethodField(help_text="'action' (collect now, an import) or 'change' (a model's)")
    target = serializers.CharField(source="target_name")
    object = serializers.CharField(source="object_repr")
    model = serializers.CharField(source="content_type.name")
    action = serializers.SerializerMethodField(help_text="what was done: 'collect now', 'create', 'update' ...")
    detail = serializers.SerializerMethodField()
    outcome = serializers.SerializerMethodField()
    changes = serializers.SerializerMethodField(help_text="field -> [old, new] of a model change")

    def _access(self, entry) -> bool:
        return entry.action == entry.Action.ACCESS

    def get_kind(self, entry) -> str:
        return "action" if self._access(entry) else "change"

    def get_action(self, entry) -> str:
        return (entry.additional_data or {}).get("action", "") if self._access(entry) else entry.get_action_display()

    def get_detail(self, entry) -> str:
        return str((entry.additional_data or {}).get("detail", "")) if self._access(entry) else ""

    def get_outcome(self, entry) -> str:
        return str((entry.additional_data or {}).get("outcome", "")) if self._access(entry) else ""

    def get_changes(self, entry) -> dict[str, list[Any]]:
        return {} if self._access(entry) else {field: list(values) for field, values in entry.changes_dict.items()}


@extend_schema_view(get=extend_schema(
    operation_id="audit_list", summary="The audit log (admins)", description="Newest first.",
    parameters=[OpenApiParameter("target", str, description="a target's name"),
                OpenApiParameter("actor", str, description="who")]))
class AuditList(ApiListView):
    permission_classes = [AdminOnly]
    serializer_class = AuditEntrySerializer
    filter_backends: list = []

    def rows(self):
        return audit_entry_list(target_name=self.request.query_params.get("target", "")[:128],
                                actor_name=self.request.query_params.get("actor", "")[:200])
