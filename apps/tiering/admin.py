from django.contrib import admin

from apps.tiering.models import Recommendation, Tier


@admin.register(Tier)
class TierAdmin(admin.ModelAdmin):
    list_display = ["name", "kind", "billing", "device_cost_usd", "device_gb", "device_iops", "usd_per_gb",
                    "usd_per_iops", "read_latency_ms", "is_flash", "tier_set"]
    list_filter = ["tier_set", "kind", "billing"]


@admin.register(Recommendation)
class RecommendationAdmin(admin.ModelAdmin):
    list_display = ["target", "segment", "current_tier", "recommended_tier", "savings_usd", "action", "computed_at"]
    list_filter = ["target", "action", "is_current"]
    raw_id_fields = ["segment"]

    def has_add_permission(self, request):  # computed, never typed in
        return False
