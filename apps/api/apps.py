from django.apps import AppConfig


class ApiConfig(AppConfig):
    """The REST API (docs/api.md): on top of every other app, which never import it."""

    name = "apps.api"
    label = "api"
