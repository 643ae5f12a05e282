from __future__ import annotations

from django.apps import AppConfig
from django.contrib.auth import get_user_model


class CoreConfig(AppConfig):
    name = "apps.core"

    def ready(self) -> None:
        # ready(): models need the app registry
        from django_celery_beat.models import ClockedSchedule, CrontabSchedule, IntervalSchedule, PeriodicTask

        # ready(): registers the system checks
        from apps.core import checks  # noqa: F401
        from apps.core.audit_registry import audit_register  # ready(): auditlog needs the app registry

        # Users: who may do what. The password hash is masked (the log says it changed, never what to);
        # last_login changes at every login and is not a change to the account.
        audit_register(get_user_model(), exclude_fields=["last_login"], mask_fields=["password"])
        # Schedules. Beat rewrites its bookkeeping fields at every run: not changes anyone made.
        audit_register(PeriodicTask, exclude_fields=["last_run_at", "total_run_count", "date_changed"])
        for schedule in (IntervalSchedule, CrontabSchedule, ClockedSchedule):
            audit_register(schedule)
