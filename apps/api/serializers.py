"""What the read endpoints answer. Money is USD per month (the tier set's basis applied, as the pages show
it); a figure that was not measured is null, never 0."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from apps.snapshots.models import CollectionRun, Segment
from apps.tiering.models import Tier


def money(**kwargs: Any) -> serializers.DecimalField:
    """USD (per month where named so), two decimals, a JSON number; null when unknown."""
    return serializers.DecimalField(max_digits=None, decimal_places=2, coerce_to_string=False, allow_null=True,
                                    read_only=True, **kwargs)


class RunSerializer(serializers.ModelSerializer):
    target = serializers.CharField(source="target.name", read_only=True)
    duration_s = serializers.FloatField(read_only=True, allow_null=True)
    warnings = serializers.ListField(child=serializers.CharField(), read_only=True)
    refresh_status = serializers.SerializerMethodField()
    refresh_error = serializers.SerializerMethodField()

    class Meta:
        model = CollectionRun
        fields = ["id", "target", "status", "trigger", "queued_at", "started_at", "finished_at", "snapshots_added",
                  "rows_added", "duration_s", "error", "warnings", "refresh_status", "refresh_error"]

    def _refresh(self, run: CollectionRun):
        if hasattr(run, "latest_refresh"):
            return run.latest_refresh
        return next(iter(run.refreshes.all()), None)

    def get_refresh_status(self, run: CollectionRun) -> str:
        """The refresh of recommendations after the run ("" when none was queued)."""
        refresh = self._refresh(run)
        return refresh.status if refresh else ""

    def get_refresh_error(self, run: CollectionRun) -> str:
        refresh = self._refresh(run)
        return refresh.error if refresh else ""


class TargetSerializer(serializers.Serializer):
    """A fleet row (apps.dashboard.fleet.selectors.FleetRow) with the target's run figures."""

    name = serializers.CharField(source="target.name")
    mode = serializers.CharField(source="target.mode")
    enabled = serializers.BooleanField(source="target.enabled")
    live = serializers.BooleanField(source="target.is_live", help_text="collected (not report-only)")
    tier_set = serializers.CharField(source="target.tier_set_id")
    interval_minutes = serializers.IntegerField(source="target.interval_minutes")
    next_collect_at = serializers.DateTimeField(source="target.next_collect_at", allow_null=True)
    state = serializers.SerializerMethodField(help_text="the last run's status, 'never' when never collected")
    last_run = RunSerializer(allow_null=True)
    last_success_at = serializers.DateTimeField(source="figures.last_success_at", allow_null=True)
    consecutive_failures = serializers.IntegerField(source="figures.consecutive_failures")
    segments = serializers.IntegerField()
    cost_now_usd_per_month = money()
    cost_after_usd_per_month = money()
    savings_usd_per_month = money()
    costs_lower_bound = serializers.BooleanField(source="lower_bound",
                                                 help_text="segments unpriced or with IO not measured")
    unpriced = serializers.IntegerField()
    unmeasured = serializers.IntegerField()
    moves = serializers.IntegerField(allow_null=True)
    flash_hit_ratio = serializers.FloatField(allow_null=True)

    def get_state(self, row) -> str:
        return row.last_run.status if row.last_run else "never"


class SegmentSerializer(serializers.ModelSerializer):
    class Meta:
        model = Segment
        fields = ["id", "owner", "object_name", "subobject_name", "object_type", "container", "tablespace_name",
                  "partitioned_parent", "lob_column", "parent_partition", "size_bytes", "size_at", "buffer_pool",
                  "flash_cache", "cell_flash_cache", "in_awr", "first_seen_at", "last_seen_at"]


class TierSerializer(serializers.ModelSerializer):
    intensity = serializers.SerializerMethodField()
    effective_usd_per_gb = serializers.SerializerMethodField()
    effective_usd_per_iops = serializers.SerializerMethodField()

    class Meta:
        model = Tier
        fields = ["id", "name", "tier_set", "kind", "device_cost_usd", "device_gb", "device_iops", "usd_per_gb",
                  "usd_per_iops", "included_iops", "iops_per_gb", "volume_min_gb", "volume_max_gb",
                  "volume_max_iops", "max_iops_per_gb", "max_devices", "max_gb", "read_latency_ms",
                  "throughput_mb_s", "throughput_source", "is_flash", "price_source", "priced_on", "note", "intensity",
                  "effective_usd_per_gb", "effective_usd_per_iops"]

    def _view(self, tier):
        return self.context.get("views", {}).get(tier.pk)

    def get_intensity(self, tier) -> float | None:
        """($/GB) / ($/IOPS); null when the tier's figures cannot be priced."""
        view = self._view(tier)
        return view.intensity if view else None

    def get_effective_usd_per_gb(self, tier) -> float | None:
        view = self._view(tier)
        return float(view.usd_per_gb) if view and view.usd_per_gb is not None else None

    def get_effective_usd_per_iops(self, tier) -> float | None:
        view = self._view(tier)
        return float(view.usd_per_iops) if view and view.usd_per_iops is not None else None


class BreakEvenSerializer(serializers.Serializer):
    lower = serializers.CharField()
    upper = serializers.CharField()
    intensity = serializers.FloatField(allow_null=True, help_text="null: one tier dominates, no crossing")


class TierSetSerializer(serializers.Serializer):
    """A tier set as the tiers page reads it (apps.dashboard.tiers.selectors.tier_catalog)."""

    name = serializers.CharField()
    billing = serializers.CharField(source="tier_set.billing")
    amortisation_months = serializers.IntegerField(source="tier_set.amortisation_months", allow_null=True)
    basis = serializers.CharField(source="basis.describe")
    hysteresis_band = serializers.FloatField(source="tier_set.hysteresis_band")
    hysteresis_days = serializers.IntegerField(source="tier_set.hysteresis_days")
    targets = serializers.ListField(child=serializers.CharField())
    tiers = serializers.SerializerMethodField()
    break_evens = BreakEvenSerializer(many=True)

    @extend_schema_field(TierSerializer(many=True))
    def get_tiers(self, view) -> list[dict[str, Any]]:
        views = {tier_view.tier.pk: tier_view for tier_view in view.tiers}
        # many=True makes a ListSerializer, whose data is a list; the stubs type the call as a TierSerializer.
        return TierSerializer([v.tier for v in view.tiers], many=True, context={"views": views}).data  # type: ignore[return-value]

