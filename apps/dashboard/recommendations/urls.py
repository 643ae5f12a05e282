from django.urls import path

from apps.dashboard.recommendations import views

# Included by apps.dashboard.urls (namespace "dashboard").
urlpatterns = [
    path("targets/<str:name>/", views.target_detail, name="target"),
    path("targets/<str:name>/recommendations/", views.recommendations, name="recommendations"),
    path("targets/<str:name>/recompute/", views.recompute, name="recompute"),
    path("targets/<str:name>/refresh.json", views.refresh_status, name="refresh_status"),
]
