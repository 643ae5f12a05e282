"""The compare-two-periods page's URL (included by apps.dashboard.urls, in the dashboard namespace); the picker
itself is a GET parameter of the target, segment and recommendations pages."""

from django.urls import path

from apps.dashboard.periods import views

urlpatterns = [
    path("targets/<str:name>/compare/", views.compare_periods, name="compare_periods"),
]
