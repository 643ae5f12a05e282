from django.apps import AppConfig


class SnapshotsConfig(AppConfig):
    name = "apps.snapshots"

    def ready(self) -> None:
        from apps.core.health import health_register
        from apps.snapshots.queues import health_queues

        # /healthz names a group's queue that no worker consumes (docs/scaling.md).
        health_register("queues", health_queues)
