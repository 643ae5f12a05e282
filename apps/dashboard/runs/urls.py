from django.urls import path

from apps.dashboard.runs import views

# Included by apps.dashboard.urls (namespace "dashboard").
urlpatterns = [
    path("targets/<str:name>/collect/", views.run_collect, name="collect"),
    path("runs/", views.runs, name="runs"),
    path("runs/<int:run_id>.json", views.run_status, name="run_status"),
]
