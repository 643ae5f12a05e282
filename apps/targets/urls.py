from django.urls import path

from apps.targets import views

app_name = "targets"

urlpatterns = [
    path("targets/<str:name>/check/<int:check_id>/", views.target_check, name="check"),
    path("targets/<str:name>/check/<int:check_id>/status/", views.target_check_status, name="check_status"),
]
