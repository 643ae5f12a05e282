from django.urls import include, path

app_name = "dashboard"

# Each page family's routes live in its package; their URL names are all in this one namespace.
urlpatterns = [
    path("", include("apps.dashboard.fleet.urls")),
    path("", include("apps.dashboard.recommendations.urls")),
    path("", include("apps.dashboard.segment.urls")),
    path("", include("apps.dashboard.runs.urls")),
    path("", include("apps.dashboard.tiers.urls")),
    path("", include("apps.dashboard.search.urls")),
    path("", include("apps.dashboard.audit.urls")),
    path("", include("apps.dashboard.budget.urls")),
    path("", include("apps.dashboard.periods.urls")),
    path("", include("apps.dashboard.storage.urls")),
    path("", include("apps.dashboard.targets.urls")),
]
