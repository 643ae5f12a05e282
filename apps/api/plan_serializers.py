"""Move plans and their steps as the plan pages show them, and the body that makes one."""

from __future__ import annotations

from rest_framework import serializers

from apps.api.serializers import money
from apps.tiering.plans.models import Plan, PlanStep

MODES = ["selected", "worth", "budget"]


class PlanSerializer(serializers.ModelSerializer):
    target = serializers.CharField(source="target.name", read_only=True)
    saving_usd_per_month = money()
    move_cost_usd = money(help_text="one-off cost of its moves")

    class Meta:
        model = Plan
        fields = ["id", "target", "state", "source", "note", "dbid", "release", "created_at", "created_by_name",
                  "approved_at", "approved_by_name", "executed_at", "executed_by_name", "verified_at",
                  "verified_by_name", "steps_count", "moves_count", "size_bytes", "seconds", "redo_bytes",
                  "saving_usd_per_month", "move_cost_usd", "payback_days", "unknown_seconds", "unknown_redo",
                  "unknown_cost", "free_space_checked", "shortfalls"]


class PlanStepSerializer(serializers.ModelSerializer):
    saving_usd_per_month = money()
    move_cost_usd = money()

    class Meta:
        model = PlanStep
        fields = ["position", "phase", "kind", "segment", "owner", "object_name", "subobject_name", "object_type",
                  "container", "action", "from_tablespace", "to_tablespace", "to_tier", "runnable", "ddl",
                  "size_bytes", "seconds", "redo_bytes", "free_after_bytes", "shortfall_bytes",
                  "saving_usd_per_month", "move_cost_usd", "payback_days"]


class PlanCreateSerializer(serializers.Serializer):
    """The new-plan page's choices: the recommendations of ``segments``, every move worth making (``worth``),
    or the moves onto ``budget_tier`` that fit in ``budget_gb``."""

    target = serializers.CharField(max_length=60, help_text="the target's name")
    mode = serializers.ChoiceField(choices=MODES)
    segments = serializers.ListField(child=serializers.IntegerField(min_value=1, max_value=2**63 - 1), required=False,
                                     max_length=100_000,
                                     help_text="segment ids of current recommendations (mode 'selected')")
    budget_gb = serializers.FloatField(required=False, min_value=0.001, max_value=1e12)
    budget_tier = serializers.CharField(required=False, max_length=60, help_text="a tier's name (mode 'budget')")
    note = serializers.CharField(required=False, allow_blank=True, max_length=300, default="")

    def validate(self, data: dict) -> dict:
        if data["mode"] == "selected" and not data.get("segments"):
            raise serializers.ValidationError({"segments": "give at least one segment id, or another mode"})
        if data["mode"] == "budget" and (data.get("budget_gb") is None or not data.get("budget_tier")):
            raise serializers.ValidationError({"budget_gb": "a budget needs budget_gb and budget_tier"})
        return data


class PlanStateSerializer(serializers.Serializer):
    to = serializers.ChoiceField(choices=["approved", "executed", "verified"],
                                 help_text="approved (by an admin other than its author), executed, verified")
