"""/api/v1/ (docs/api.md), its OpenAPI schema at /api/schema/ and its docs at /api/docs/ (Swagger UI).

Redoc is not served: it writes its styles inline and loads its logo from a CDN, which the site's CSP refuses.
"""

from django.urls import include, path

from apps.api.docs import DocsView, SchemaView
from apps.api.views import fleet, imports, plans, recommendations, targets

app_name = "api"

target = [
    path("", targets.TargetDetail.as_view(), name="target"),
    path("collect/", targets.CollectNow.as_view(), name="collect"),
    path("segments/", targets.SegmentList.as_view(), name="segments"),
    path("segments/<int:segment_id>/history/", targets.SegmentHistory.as_view(), name="segment_history"),
    path("recommendations/", recommendations.RecommendationList.as_view(), name="recommendations"),
    path("imports/report/", imports.ReportImport.as_view(), name="import_report"),
    path("imports/extract/", imports.ExtractImport.as_view(), name="import_extract"),
]

plan = [
    path("", plans.PlanDetail.as_view(), name="plan"),
    path("steps/", plans.PlanSteps.as_view(), name="plan_steps"),
    path("state/", plans.PlanState.as_view(), name="plan_state"),
    path("script/", plans.PlanScript.as_view(), name="plan_script"),
]

v1 = [
    path("targets/", targets.TargetList.as_view(), name="targets"),
    path("targets/<str:name>/", include(target)),
    path("runs/", targets.RunList.as_view(), name="runs"),
    path("runs/<int:run_id>/", targets.RunDetail.as_view(), name="run"),
    path("tier-sets/", fleet.TierSetList.as_view(), name="tier_sets"),
    path("budget/", fleet.FleetBudgetView.as_view(), name="budget"),
    path("audit/", fleet.AuditList.as_view(), name="audit"),
    path("plans/", plans.PlanList.as_view(), name="plans"),
    path("plans/<int:plan_id>/", include(plan)),
]

urlpatterns = [
    path("api/v1/", include(v1)),
    path("api/schema/", SchemaView.as_view(), name="schema"),
    path("api/docs/", DocsView.as_view(url_name="api:schema"), name="docs"),
]
