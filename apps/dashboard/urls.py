from django.urls import include, path

from apps.dashboard import views

app_name = "dashboard"

urlpatterns = [
    path("", views.fleet, name="fleet"),
    path("targets/<str:name>/", views.target_detail, name="target"),
    path("targets/<str:name>/segments/<int:segment_id>/", views.segment_detail, name="segment"),
    path("targets/<str:name>/recommendations/", views.recommendations, name="recommendations"),
    path("targets/<str:name>/collect/", views.run_collect, name="collect"),
    path("targets/<str:name>/recompute/", views.recompute, name="recompute"),
    path("targets/<str:name>/refresh.json", views.refresh_status, name="refresh_status"),
    path("runs/", views.runs, name="runs"),
    path("runs/<int:run_id>.json", views.run_status, name="run_status"),
    path("tiers/", views.tiers, name="tiers"),
    path("tiers/<int:tier_id>/edit/", views.tier_edit, name="tier_edit"),
    path("tiers/presets/", views.tier_presets, name="tier_presets"),
    path("search/", views.search, name="search"),
    path("", include("apps.dashboard.audit.urls")),
    path("", include("apps.dashboard.budget.urls")),
    path("", include("apps.dashboard.periods.urls")),
    path("", include("apps.dashboard.storage.urls")),
    path("", include("apps.dashboard.targets.urls")),
]
