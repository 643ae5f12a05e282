"""A recommendation as the recommendations page's table and CSV read it, with ``fields=`` to answer a subset
of its columns, and a segment's history as the segment page's charts read it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rest_framework import serializers

from apps.api.errors import BadRequest
from apps.api.serializers import money
from apps.dashboard.selectors import segment_label
from apps.tiering.models import Recommendation
from apps.tiering.rules import FINDING_CODES

#: What DRF's to_representation of these field types is, for the values our rows hold (ints, floats, strings,
#: booleans); every other type goes through its field's own to_representation.
_PLAIN: dict[type, Callable[[Any], Any]] = {serializers.IntegerField: int, serializers.FloatField: float,
                                            serializers.CharField: str, serializers.BooleanField: bool}


class RecommendationSerializer(serializers.ModelSerializer):
    """One current recommendation. Money per month in the target's tier set's basis (context ``basis``)."""

    # The measured figures are the model's own columns (their types, nullability and help come from
    # Recommendation._meta); what a row shows of its segment, its tiers and its money is declared here.

    segment_id = serializers.IntegerField()
    # A declared field named label (DRF's metaclass collects it); the stubs see Field.label, a string.
    label = serializers.SerializerMethodField()  # type: ignore[assignment]
    owner = serializers.CharField(source="segment.owner")
    object_name = serializers.CharField(source="segment.object_name")
    subobject_name = serializers.CharField(source="segment.subobject_name")
    object_type = serializers.CharField(source="segment.object_type")
    container = serializers.CharField(source="segment.container")
    tablespace_name = serializers.CharField(source="segment.tablespace_name")
    current_tier = serializers.CharField(source="current_tier.name", allow_null=True, default=None)
    cost_tier = serializers.CharField(source="cost_tier.name", allow_null=True, default=None,
                                      help_text="the cost model's cheapest tier")
    recommended_tier = serializers.CharField(source="recommended_tier.name", allow_null=True, default=None)
    cost_now_usd_per_month = serializers.SerializerMethodField()
    cost_after_usd_per_month = serializers.SerializerMethodField()
    savings_usd_per_month = serializers.SerializerMethodField()
    move_cost_usd = money(help_text="the move's one-off cost")
    findings = serializers.SerializerMethodField()

    class Meta:
        model = Recommendation
        # The columns in the order the table, the CSV and the API answer them.
        fields = ["segment_id", "label", "owner", "object_name", "subobject_name", "object_type", "container",
                  "tablespace_name", "action", "current_tier", "cost_tier", "recommended_tier", "measured", "iops",
                  "read_iops", "write_iops", "iops_bound", "size_gb", "intensity", "read_requests_per_day",
                  "flash_blocks", "cache_blocks", "cost_now_usd_per_month", "cost_after_usd_per_month",
                  "savings_usd_per_month", "io_time_saved_s_per_day", "move_seconds", "move_redo_bytes",
                  "move_cost_usd", "payback_days", "findings", "move_group"]
        read_only_fields = fields
        extra_kwargs = {"measured": {"help_text": "false: IO not all measured (AWR's top-N), figures are bounds"},
                        "intensity": {"help_text": "IOPS per GB"}}

    def __init__(self, *args: Any, fields: list[str] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if fields:
            for name in set(self.fields) - set(fields):
                self.fields.pop(name)
        self._readers: list[tuple[str, Callable[[Any], Any]]] | None = None

    def to_representation(self, rec) -> dict[str, Any]:
        """What DRF's Serializer.to_representation answers for the declared fields, read through readers made
        once per serializer: a page of 1,000 rows is read a thousand times by the same child (DRF's generic path
        resolves every field's source and type again for every row, most of an API page's time)."""
        if self._readers is None:
            self._readers = [(name, self._reader(field)) for name, field in self.fields.items() if not field.write_only]
        return {name: read(rec) for name, read in self._readers}

    def _reader(self, field: serializers.Field) -> Callable[[Any], Any]:
        if isinstance(field, serializers.SerializerMethodField):
            return getattr(self, field.method_name)
        attrs, convert = field.source_attrs, _PLAIN.get(type(field), field.to_representation)

        def read(rec: Any) -> Any:
            value = rec
            for attr in attrs:  # a related row that is not there (no current tier) reads as null, as declared
                if value is None:
                    return None
                value = getattr(value, attr)
            return None if value is None else convert(value)

        return read

    def get_label(self, rec) -> str:
        """OWNER.NAME (partition), as the pages write it."""
        seg = rec.segment
        return segment_label(seg.owner, seg.object_name, seg.subobject_name, seg.parent_partition, seg.container)

    def _per_month(self, amount):
        basis = self.context["basis"]
        value = basis.per_month(amount)
        return None if value is None else float(round(value, 2))

    def get_cost_now_usd_per_month(self, rec) -> float | None:
        return self._per_month(rec.cost_now_usd)

    def get_cost_after_usd_per_month(self, rec) -> float | None:
        return self._per_month(rec.cost_after_usd)

    def get_savings_usd_per_month(self, rec) -> float | None:
        return self._per_month(rec.savings_usd)

    def get_findings(self, rec) -> list[str]:
        """The rules that fired (apps.tiering.rules.FINDING_CODES)."""
        return [code for bit, code in enumerate(FINDING_CODES) if rec.findings & (1 << bit)]


RECOMMENDATION_FIELDS = tuple(RecommendationSerializer().fields)


def fields_param(raw: str | None) -> list[str] | None:
    """``fields=a,b,c`` checked against the columns; BadRequest naming the unknown ones."""
    if not raw:
        return None
    asked = [name.strip() for name in raw.split(",") if name.strip()]
    unknown = [name for name in asked if name not in RECOMMENDATION_FIELDS]
    if unknown or not asked:
        raise BadRequest("fields", f"unknown column(s) {', '.join(unknown) or '(none given)'}; the columns are "
                                   f"{', '.join(RECOMMENDATION_FIELDS)}")
    return asked


class HistoryRecommendationSerializer(RecommendationSerializer):
    """The segment's row in one of its target's runs."""

    computed_at = serializers.DateTimeField(source="run.computed_at")
    current = serializers.BooleanField(source="is_current")
    window_days = serializers.IntegerField()
    statistic = serializers.CharField()

    class Meta(RecommendationSerializer.Meta):
        fields = [*RecommendationSerializer.Meta.fields, "computed_at", "current", "window_days", "statistic"]
        read_only_fields = fields


class SegmentSampleSerializer(serializers.Serializer):
    end_at = serializers.DateTimeField()
    interval_s = serializers.FloatField()
    read_requests = serializers.IntegerField(allow_null=True, help_text="null: not measured")
    write_requests = serializers.IntegerField(allow_null=True, help_text="null: not measured")
    space_allocated_bytes = serializers.IntegerField(allow_null=True)


class ResidencySampleSerializer(serializers.Serializer):
    collected_at = serializers.DateTimeField()
    flash_blocks = serializers.IntegerField(allow_null=True)
    cache_blocks = serializers.IntegerField(allow_null=True)


class SegmentHistorySerializer(serializers.Serializer):
    """What the segment page's charts read: IO and space per snapshot, flash-cache residency, and the
    segment's recommendation in each of the latest runs (newest first)."""

    segment_id = serializers.IntegerField()
    label = serializers.CharField()  # type: ignore[assignment]  # a declared field (as above)
    series = SegmentSampleSerializer(many=True)
    residency = ResidencySampleSerializer(many=True)
    recommendations = HistoryRecommendationSerializer(many=True)
