from django.apps import AppConfig

from apps.tiering.signals import run_rows_written


class DashboardConfig(AppConfig):
    name = "apps.dashboard"

    def ready(self) -> None:
        # A stored run's page figures, computed once (tiering stores runs and knows nothing of the pages).
        run_rows_written.connect(_store_figures, dispatch_uid="dashboard-run-figures")


def _store_figures(sender, *, run, **kwargs) -> None:
    # ready(): run_figures imports models, and this module loads before the app registry is ready
    from apps.dashboard.recommendations.run_figures import run_figures_store

    run_figures_store(run)
