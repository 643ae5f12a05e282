from django.urls import path

from apps.dashboard.tiers import views

# Included by apps.dashboard.urls (namespace "dashboard").
urlpatterns = [
    path("tiers/", views.tiers, name="tiers"),
    path("tiers/<int:tier_id>/edit/", views.tier_edit, name="tier_edit"),
    path("tiers/presets/", views.tier_presets, name="tier_presets"),
]
