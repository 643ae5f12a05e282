from django.contrib import admin

from apps.tiering.models import RecommendationRun, Tier, TierSet


@admin.register(TierSet)
class TierSetAdmin(admin.ModelAdmin):
    """Tier sets: the billing basis (purchase, amortised over its months; or monthly) of the tiers in each."""

    list_display = ["name", "billing", "amortisation_months", "note"]
    list_filter = ["billing"]

    def get_readonly_fields(self, request, obj=None):
        return ["name"] if obj is not None else []  # the key targets and tiers refer to


@admin.register(Tier)
class TierAdmin(admin.ModelAdmin):
    list_display = ["name", "kind", "device_cost_usd", "device_gb", "device_iops", "usd_per_gb",
                    "usd_per_iops", "read_latency_ms", "is_flash", "tier_set"]
    list_filter = ["tier_set", "tier_set__billing", "kind"]


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
