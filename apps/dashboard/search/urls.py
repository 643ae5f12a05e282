from django.urls import path

from apps.dashboard.search import views

# Included by apps.dashboard.urls (namespace "dashboard").
urlpatterns = [
    path("search/", views.search, name="search"),
]
