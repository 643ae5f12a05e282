from django.urls import path

from apps.dashboard.segment import views

# Included by apps.dashboard.urls (namespace "dashboard").
urlpatterns = [
    path("targets/<str:name>/segments/<int:segment_id>/", views.segment_detail, name="segment"),
]
