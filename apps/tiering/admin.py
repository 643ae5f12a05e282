from django.contrib import admin

from apps.core.admin_delete import CountedDeleteAdmin
from apps.tiering.models import BudgetRun, RecommendationRun, Tier, TierCalibration, TierSet


@admin.register(TierSet)
class TierSetAdmin(CountedDeleteAdmin):
    """Tier sets: the billing basis (purchase, amortised over its months; or monthly) of the tiers in each."""

    list_display = ["name", "billing", "amortisation_months", "move_cost_usd", "payback_horizon_months",
                    "min_saving_usd_per_month", "hysteresis_band", "hysteresis_days", "note"]
    list_filter = ["billing"]
    fieldsets = [
        (None, {"fields": ["name", "billing", "amortisation_months", "note"]}),
        ("Moves worth making", {
            "fields": ["move_cost_usd", "payback_horizon_months", "min_saving_usd_per_month"],
            "description": "A move is recommended only when its saving per month is at least the minimum and "
                           "repays its one-off cost (the DBA's cost per move; the copy's IO is not charged) within "
                           "the horizon; the others are 'not worth moving'. Takes effect at the next refresh.",
        }),
        ("Hysteresis", {
            "fields": ["hysteresis_band", "hysteresis_days"],
            "description": "A segment goes back to a tier it left (or was advised to leave) only when its intensity "
                           "is past the break-even between the two tiers by the band (0.25: 25 % above it to go up, "
                           "25 % below to go down) and the cost model has advised the move back on that many days "
                           "of runs in a row; until then it is held where it is. Takes effect at the next refresh.",
        }),
    ]

    def get_readonly_fields(self, request, obj=None):
        return ["name"] if obj is not None else []  # the key targets and tiers refer to


@admin.register(Tier)
class TierAdmin(CountedDeleteAdmin):
    list_display = ["name", "kind", "device_cost_usd", "device_gb", "device_iops", "usd_per_gb",
                    "usd_per_iops", "read_latency_ms", "throughput_mb_s", "is_flash", "tier_set"]
    list_filter = ["tier_set", "tier_set__billing", "kind"]


@admin.register(RecommendationRun)
class RecommendationRunAdmin(CountedDeleteAdmin):
    """The refreshes (the recommendations themselves are on the dashboard, with filters and CSV)."""

    list_display = ["target", "computed_at", "state", "recommendations", "window_first_day", "window_last_day",
                    "statistic"]
    list_filter = ["target", "state"]
    readonly_fields = [field.name for field in RecommendationRun._meta.fields]

    def has_add_permission(self, request):  # computed, never typed in
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(TierCalibration)
class TierCalibrationAdmin(admin.ModelAdmin):
    """Calibration files stored on tiers (from the tier page or manage.py calibration --tier): read-only records."""

    list_display = ["tier", "source", "file_name", "read_iops", "write_iops", "read_latency_ms", "measured_at",
                    "uploaded_at", "uploaded_by"]
    list_filter = ["source", "tier__tier_set"]
    readonly_fields = [field.name for field in TierCalibration._meta.fields]

    def has_add_permission(self, request):  # stored through the tier page or the command, which set the tier
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(BudgetRun)
class BudgetRunAdmin(admin.ModelAdmin):
    """The fleet budgets remembered (their plans made, or ``manage.py budget --remember``): the latest of a tier
    gives its segments their places in the tier's next budget. Deleting one forgets it."""

    list_display = ["tier", "made_at", "budget_gb", "budget_usd_per_month", "made_by_name", "how", "chosen_count",
                    "chosen_gb"]
    list_filter = ["tier"]
    exclude = ["chosen_segment_ids"]  # the ids, packed: the count and GB say what it holds
    readonly_fields = [field.name for field in BudgetRun._meta.fields if field.name != "chosen_segment_ids"]

    def has_add_permission(self, request):  # made by the budget, never typed in
        return False

    def has_change_permission(self, request, obj=None):
        return False
