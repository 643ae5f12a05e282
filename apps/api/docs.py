"""The OpenAPI schema and the two pages that read it, Swagger UI and Redoc, from drf-spectacular-sidecar's
static files. The pages' templates have no inline code and no font CDN, so they render under the site's CSP;
Redoc builds its styles from script (a <style> element it fills), which its page alone allows."""

from __future__ import annotations

from csp.constants import SELF, UNSAFE_INLINE
from csp.decorators import csp_update
from django.utils.decorators import method_decorator
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerSplitView

from apps.api.views.base import ApiMixin


class SchemaView(ApiMixin, SpectacularAPIView):
    """The schema, for any signed-in client (a script with an API token included): YAML, or JSON with
    ``?format=json``."""


class DocsView(SpectacularSwaggerSplitView):
    template_name = "api/swagger_ui.html"


@method_decorator(csp_update({"style-src": [SELF, UNSAFE_INLINE], "worker-src": [SELF, "blob:"]}), name="dispatch")
class RedocView(SpectacularRedocView):
    template_name = "api/redoc.html"
