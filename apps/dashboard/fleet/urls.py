from django.urls import path

from apps.dashboard.fleet import views

# Included by apps.dashboard.urls (namespace "dashboard").
urlpatterns = [
    path("", views.fleet, name="fleet"),
]
