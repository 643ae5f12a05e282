from django.urls import path

from apps.dashboard.budget import views as budget_views

# Included by apps.dashboard.urls (namespace "dashboard"); the split itself is a GET on the fleet page.
urlpatterns = [
    path("budget/plans/", budget_views.budget_plans, name="budget_plans"),
]
