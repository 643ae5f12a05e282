from django.apps import AppConfig


class TieringConfig(AppConfig):
    name = "apps.tiering"
