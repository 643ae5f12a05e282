"""The API token's place in the schema: a bearer scheme, so Swagger UI offers "Authorize" with a key and a
client generated from the schema sends ``Authorization: Bearer <key>`` (docs/api-tokens.md). drf-spectacular
finds it by the authentication class's dotted path once this module is imported (apps.api.apps)."""

from __future__ import annotations

from drf_spectacular.extensions import OpenApiAuthenticationExtension


class ApiTokenScheme(OpenApiAuthenticationExtension):
    target_class = "apps.apitokens.authentication.ApiTokenAuthentication"
    name = "apiToken"

    def get_security_definition(self, auto_schema):
        return {"type": "http", "scheme": "bearer", "bearerFormat": "tsk_<prefix>_<secret>",
                "description": "An API token from the API tokens page or `manage.py api_token`."}
