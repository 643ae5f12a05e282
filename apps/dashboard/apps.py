from django.apps import AppConfig


class DashboardConfig(AppConfig):
    name = "apps.dashboard"

    def ready(self) -> None:
        from apps.tiering.signals import run_rows_written

        # A stored run's page figures, computed once (tiering stores runs and knows nothing of the pages).
        run_rows_written.connect(_store_figures, dispatch_uid="dashboard-run-figures")


def _store_figures(sender, *, run, **kwargs) -> None:
    from apps.dashboard.run_figures import run_figures_store

    run_figures_store(run)
