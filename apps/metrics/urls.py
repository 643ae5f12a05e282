from django.urls import path

from apps.metrics.views import metrics

urlpatterns = [path("metrics", metrics, name="metrics")]
