from django.urls import path

from apps.dashboard import calibration_views as views

app_name = "calibration"

urlpatterns = [
    path("tiers/<int:tier_id>/calibration/", views.tier_calibration_upload, name="upload"),
]
