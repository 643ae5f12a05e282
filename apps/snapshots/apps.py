from django.apps import AppConfig

from apps.core.health import health_register


class SnapshotsConfig(AppConfig):
    name = "apps.snapshots"

    def ready(self) -> None:
        from apps.snapshots.queues import health_queues  # ready(): queues imports models

        # /healthz names a group's queue that no worker consumes (docs/scaling.md).
        health_register("queues", health_queues)
