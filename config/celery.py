"""The Celery app: configuration from Django settings, tasks autodiscovered."""

from __future__ import annotations

import os

from celery import Celery

from config.dotenv import load_dotenv_file

load_dotenv_file()
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")

app = Celery("tierscope")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
# Each worker node writes its heartbeat for /healthz (apps/core/heartbeat.py).
app.steps["worker"].add("apps.core.heartbeat:WorkerHeartbeat")
