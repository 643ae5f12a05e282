from django.urls import path

from apps.snapshots import views

app_name = "snapshots"

urlpatterns = [
    path("targets/<str:name>/import/", views.target_import, name="import"),
]
