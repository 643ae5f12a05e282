from django.urls import path

from apps.targets import views

app_name = "targets"

urlpatterns = [
    path("targets/<str:name>/import/", views.target_import, name="import"),
]
