from django.apps import AppConfig

from apps.snapshots.signals import run_followups, run_succeeded
from apps.tiering.signals import refresh_succeeded


class TieringConfig(AppConfig):
    name = "apps.tiering"

    def ready(self) -> None:
        from apps.core.audit_registry import audit_register  # ready(): auditlog needs the app registry
        from apps.tiering.models import Plan, Tier  # ready(): models need the app registry
        from apps.tiering.recommendations.export_store import on_refresh_succeeded  # ready(): imports models
        from apps.tiering.recommendations.readiness import on_run_followups  # ready(): imports models
        from apps.tiering.recommendations.refreshes import on_run_succeeded  # ready(): imports models

        # Prices and tier sets, with old and new values.
        audit_register(Tier)
        # Move plans: made, approved, executed, verified (who and when, old -> new).
        audit_register(Plan, target_name=lambda plan: plan.target.name)

        # The one way data flows on: snapshots announce a run, tiering refreshes (snapshots never import tiering).
        run_succeeded.connect(on_run_succeeded, dispatch_uid="tiering.refresh_after_run")
        run_followups.connect(on_run_followups, dispatch_uid="tiering.recommendations_after_run")
        # A refresh's run: its export is worded once, by a task of its own, off the refresh's path.
        refresh_succeeded.connect(on_refresh_succeeded, dispatch_uid="tiering.export_render_after_refresh")
