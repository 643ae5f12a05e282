from django.contrib import admin
from django.urls import include, path

from apps.core.views import healthz

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("accounts/", include("django.contrib.auth.urls")),
    path("", include("apps.targets.urls")),
    path("", include("apps.snapshots.urls")),
    path("", include("apps.dashboard.urls")),
]
