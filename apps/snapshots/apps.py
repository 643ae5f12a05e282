from django.apps import AppConfig


class SnapshotsConfig(AppConfig):
    name = "apps.snapshots"
