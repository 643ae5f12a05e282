"""The audit page's URL (included by apps.dashboard.urls, in the dashboard namespace)."""

from django.urls import path

from apps.dashboard.audit import views

urlpatterns = [
    path("audit/", views.audit, name="audit"),
]
