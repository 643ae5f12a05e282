from __future__ import annotations

import logging

from django.apps import AppConfig

from apps.snapshots.signals import run_ended
from apps.tiering.signals import plan_state_changed, refresh_succeeded


class AlertsConfig(AppConfig):
    name = "apps.alerts"

    def ready(self) -> None:
        from apps.alerts import receivers  # ready(): receivers reach models through the tasks
        from apps.alerts.channels import redact_urls  # ready(): channels import models

        # The lower apps announce; the alerts listen (none of them imports this app).
        run_ended.connect(receivers.on_run_ended, dispatch_uid="alerts.after_run")
        refresh_succeeded.connect(receivers.on_refresh_succeeded, dispatch_uid="alerts.after_refresh")
        plan_state_changed.connect(receivers.on_plan_state_changed, dispatch_uid="alerts.after_plan")
        # apprise logs the URLs it fails on: tokens of Slack, Teams, PagerDuty... never reach the log.
        logging.getLogger("apprise").addFilter(redact_urls)
