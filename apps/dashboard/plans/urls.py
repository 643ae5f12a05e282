from django.urls import include, path

from apps.dashboard.plans import views

app_name = "plans"

plan = [
    path("", views.plan_detail, name="detail"),
    path("state/", views.plan_state, name="state"),
    path("export.sql", views.plan_export_sql, name="export_sql"),
    path("export.csv", views.plan_export_csv, name="export_csv"),
]

urlpatterns = [
    path("plans/", views.plan_list, name="list"),
    path("plans/<int:plan_id>/", include(plan)),
    path("targets/<str:name>/plans/new/", views.plan_new, name="new"),
]
