from django.urls import path

from apps.dashboard.plans import views

app_name = "plans"

urlpatterns = [
    path("plans/", views.plan_list, name="list"),
    path("plans/<int:plan_id>/", views.plan_detail, name="detail"),
    path("plans/<int:plan_id>/state/", views.plan_state, name="state"),
    path("plans/<int:plan_id>/export.sql", views.plan_export_sql, name="export_sql"),
    path("plans/<int:plan_id>/export.csv", views.plan_export_csv, name="export_csv"),
    path("targets/<str:name>/plans/new/", views.plan_new, name="new"),
]
