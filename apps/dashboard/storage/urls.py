"""The storage map's URL (included by apps.dashboard.urls, in the dashboard namespace)."""

from django.urls import path

from apps.dashboard.storage import views as storage_views

urlpatterns = [
    path("targets/<str:name>/storage-map/", storage_views.storage_location, name="storage_location"),
]
