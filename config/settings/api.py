"""The REST API's settings (docs/api.md): Django REST framework, django-filter and drf-spectacular.

Authentication is a list the deployment may extend (API tokens add their class after the session's);
every endpoint answers JSON, bad input included, and pages are bounded (apps/api/pagination.py).
"""

from __future__ import annotations

REST_FRAMEWORK = {
    # An API token first (docs/api-tokens.md): DRF takes the 401 challenge from the first class, so a refused
    # key is a 401 with "Bearer", not a 403. SessionAuthentication checks the CSRF token on writes, as the
    # pages' forms do.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "apps.apitokens.authentication.ApiTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["apps.api.permissions.ViewerReadAdminWrite"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": [
        "rest_framework.parsers.JSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_PAGINATION_CLASS": "apps.api.pagination.BoundedLimitOffsetPagination",
    "PAGE_SIZE": 100,
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "apps.api.errors.api_exception_handler",
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
}

SPECTACULAR_SETTINGS = {
    "TITLE": "tierscope API",
    "DESCRIPTION": "Targets, collection runs, tiers, recommendations, plans and the fleet budget of tierscope "
                   "(docs/api.md). Money is USD per month; a figure that was not measured is null, never 0.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SERVE_PERMISSIONS": ["rest_framework.permissions.IsAuthenticated"],
    "SCHEMA_PATH_PREFIX": r"/api/v1",
    "COMPONENT_SPLIT_REQUEST": True,
    # Swagger UI from drf-spectacular-sidecar's own static files: no CDN (the CSP allows none).
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "apps.api.schema.add_error_responses",  # every operation's JSON errors
    ],
}
