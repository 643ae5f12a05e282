"""The OpenAPI schema and the page that reads it, Swagger UI, from drf-spectacular-sidecar's
static files. The pages' templates have no inline code and no font CDN, so they render under the site's strict
CSP like every other page (the tools style their content from script, which CSP allows)."""

from __future__ import annotations

from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from apps.api.views.base import ApiMixin


class SchemaView(ApiMixin, SpectacularAPIView):
    """The schema, for any signed-in client (a script with an API token included): YAML, or JSON with
    ``?format=json``."""


class _Page:
    """A docs page is a page: behind the login page, and CsrfViewMiddleware checks what is posted to it."""

    @classmethod
    def as_view(cls, **initkwargs):
        view = super().as_view(**initkwargs)
        view.csrf_exempt = False
        view.login_required = True  # DRF marks its views login_not_required: this one is a page
        return view


class DocsView(_Page, SpectacularSwaggerSplitView):
    template_name = "api/swagger_ui.html"

