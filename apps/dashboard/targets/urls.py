from django.urls import include, path

from apps.dashboard.targets import views as target_views

target = [
    path("edit/", target_views.target_edit, name="target_edit"),
    path("delete/", target_views.target_delete, name="target_delete"),
    path("check/", target_views.target_check_start, name="target_check_start"),
]

# Included by apps.dashboard.urls (namespace "dashboard"). Under /manage/: /targets/<name>/ is a target's page,
# and a target may be called "add" or "manage".
urlpatterns = [
    path("manage/targets/", target_views.targets_manage, name="targets_manage"),
    path("manage/targets/add/", target_views.target_add, name="target_add"),
    path("manage/targets/<str:name>/", include(target)),
]
