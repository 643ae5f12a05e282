from django.apps import AppConfig


class ApiConfig(AppConfig):
    """The REST API (docs/api.md): on top of every other app, which never import it."""

    name = "apps.api"
    label = "api"

    def ready(self) -> None:
        # ready(): registers the API token's scheme with drf-spectacular
        from apps.api import schema_auth  # noqa: F401
