from django.contrib import admin

from apps.tiering.models import RecommendationRun, Tier


@admin.register(Tier)
class TierAdmin(admin.ModelAdmin):
    list_display = ["name", "kind", "billing", "device_cost_usd", "device_gb", "device_iops", "usd_per_gb",
                    "usd_per_iops", "read_latency_ms", "is_flash", "tier_set"]
    list_filter = ["tier_set", "kind", "billing"]


@admin.register(RecommendationRun)
class RecommendationRunAdmin(admin.ModelAdmin):
    """The refreshes (the recommendations themselves are on the dashboard, with filters and CSV)."""

    list_display = ["target", "computed_at", "state", "recommendations", "window_first_day", "window_last_day",
                    "statistic"]
    list_filter = ["target", "state"]
    readonly_fields = [field.name for field in RecommendationRun._meta.fields]

    def has_add_permission(self, request):  # computed, never typed in
        return False

    def has_change_permission(self, request, obj=None):
        return False
