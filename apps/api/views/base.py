"""What every API view shares: DRF authenticates and answers 401/403 as JSON, so the site's
LoginRequiredMiddleware never sends an API client to the login page."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_not_required
from django.db.models import Model
from django.http import Http404
from rest_framework.generics import GenericAPIView, ListAPIView
from rest_framework.views import APIView

from apps.targets.models import Target


class ApiMixin(APIView):  # mixed into APIView's subclasses: its as_view comes before theirs
    @classmethod
    def as_view(cls, **initkwargs: Any):
        # Not the site's login (LoginRequiredMiddleware): authentication and roles are REST_FRAMEWORK's classes.
        return login_not_required(super().as_view(**initkwargs))

    def dispatch(self, request: Any, *args: Any, **kwargs: Any) -> Any:
        """DRF's, with the response no longer held by the view once answered. A view points at itself (Django's
        setup() makes ``head`` its bound ``get``) and the response at its view until rendered: a response kept by
        the view was only ever freed by the garbage collector, every row of its page (``data``) with it. Freed
        when sent, a 1,000-row page no longer leaves its rows for the collector's full passes."""
        response = super().dispatch(request, *args, **kwargs)
        del self.response
        if hasattr(response, "add_post_render_callback"):  # a DRF Response, rendered after the view returns
            response.add_post_render_callback(_view_forgotten)
        return response


def _view_forgotten(response: Any) -> None:
    response.renderer_context = None  # rendered: the response no longer needs its view


class ApiView(ApiMixin, APIView):
    pass


class ApiGenericView(ApiMixin, GenericAPIView):
    pass


class ApiListView(ApiMixin, ListAPIView):
    """A bounded page of rows (apps.api.pagination)."""

    # The rows are rows(). While drf-spectacular draws the schema there is no request: a view whose rows read
    # the URL (or a query too dear to run for nothing) names schema_model, and the schema reads none of it.
    schema_model: type[Model] | None = None

    def get_queryset(self) -> Any:
        if self.schema_model is not None and getattr(self, "swagger_fake_view", False):
            return self.schema_model._default_manager.none()
        return self.rows()

    def rows(self) -> Any:
        raise NotImplementedError(f"{type(self).__name__} lists no rows")


def target_or_404(name: str, *, tier_set: bool = False) -> Target:
    targets = Target.objects.select_related("tier_set") if tier_set else Target.objects.all()
    try:
        return targets.get(name=name)
    except Target.DoesNotExist:
        raise Http404(f"No target named {name!r}.") from None
