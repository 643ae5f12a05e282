from django.apps import AppConfig


class TieringConfig(AppConfig):
    name = "apps.tiering"

    def ready(self) -> None:
        from apps.core.audit_registry import audit_register
        from apps.snapshots.signals import run_followups, run_succeeded
        from apps.tiering.models import Plan, Tier
        from apps.tiering.recommendations.export_store import on_refresh_succeeded
        from apps.tiering.recommendations.readiness import on_run_followups
        from apps.tiering.recommendations.refreshes import on_run_succeeded
        from apps.tiering.signals import refresh_succeeded

        # Prices and tier sets, with old and new values.
        audit_register(Tier)
        # Move plans: made, approved, executed, verified (who and when, old -> new).
        audit_register(Plan, target_name=lambda plan: plan.target.name)

        # The one way data flows on: snapshots announce a run, tiering refreshes (snapshots never import tiering).
        run_succeeded.connect(on_run_succeeded, dispatch_uid="tiering.refresh_after_run")
        run_followups.connect(on_run_followups, dispatch_uid="tiering.recommendations_after_run")
        # A refresh's run: its export is worded once, by a task of its own, off the refresh's path.
        refresh_succeeded.connect(on_refresh_succeeded, dispatch_uid="tiering.export_render_after_refresh")
