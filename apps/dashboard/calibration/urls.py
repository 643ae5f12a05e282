from django.urls import path

from apps.dashboard.calibration import views

app_name = "calibration"

urlpatterns = [
    path("tiers/<int:tier_id>/calibration/", views.tier_calibration_upload, name="upload"),
]
