"""/api/v1/ (docs/api.md), its OpenAPI schema at /api/schema/ and its docs at /api/docs/ (Swagger UI).

Redoc is not served: it writes its styles inline and loads its logo from a CDN, which the site's CSP refuses.
"""

from django.urls import include, path

from apps.api.docs import DocsView, SchemaView
from apps.api.views import fleet, imports, plans, recommendations, targets

app_name = "api"

#: (route under /api/v1/, view, URL name)
V1_ROUTES = (
    ("targets/", targets.TargetList, "targets"),
    ("targets/<str:name>/", targets.TargetDetail, "target"),
    ("targets/<str:name>/collect/", targets.CollectNow, "collect"),
    ("targets/<str:name>/segments/", targets.SegmentList, "segments"),
    ("targets/<str:name>/segments/<int:segment_id>/history/", targets.SegmentHistory, "segment_history"),
    ("targets/<str:name>/recommendations/", recommendations.RecommendationList, "recommendations"),
    ("targets/<str:name>/imports/report/", imports.ReportImport, "import_report"),
    ("targets/<str:name>/imports/extract/", imports.ExtractImport, "import_extract"),
    ("runs/", targets.RunList, "runs"),
    ("runs/<int:run_id>/", targets.RunDetail, "run"),
    ("tier-sets/", fleet.TierSetList, "tier_sets"),
    ("budget/", fleet.FleetBudgetView, "budget"),
    ("audit/", fleet.AuditList, "audit"),
    ("plans/", plans.PlanList, "plans"),
    ("plans/<int:plan_id>/", plans.PlanDetail, "plan"),
    ("plans/<int:plan_id>/steps/", plans.PlanSteps, "plan_steps"),
    ("plans/<int:plan_id>/state/", plans.PlanState, "plan_state"),
    ("plans/<int:plan_id>/script/", plans.PlanScript, "plan_script"),
)

v1 = [path(route, view.as_view(), name=name) for route, view, name in V1_ROUTES]

urlpatterns = [
    path("api/v1/", include(v1)),
    path("api/schema/", SchemaView.as_view(), name="schema"),
    path("api/docs/", DocsView.as_view(url_name="api:schema"), name="docs"),
]
