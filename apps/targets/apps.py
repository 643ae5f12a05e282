from django.apps import AppConfig


class TargetsConfig(AppConfig):
    name = "apps.targets"
