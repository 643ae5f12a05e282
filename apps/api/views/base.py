"""What every API view shares: DRF authenticates and answers 401/403 as JSON, so the site's
LoginRequiredMiddleware never sends an API client to the login page."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_not_required
from django.http import Http404
from rest_framework.generics import GenericAPIView, ListAPIView
from rest_framework.views import APIView

from apps.targets.models import Target


class ApiMixin(APIView):  # mixed into APIView's subclasses: its as_view comes before theirs
    @classmethod
    def as_view(cls, **initkwargs: Any):
        # Not the site's login (LoginRequiredMiddleware): authentication and roles are REST_FRAMEWORK's classes.
        return login_not_required(super().as_view(**initkwargs))


class ApiView(ApiMixin, APIView):
    pass


class ApiGenericView(ApiMixin, GenericAPIView):
    pass


class ApiListView(ApiMixin, ListAPIView):
    """A bounded page of rows (apps.api.pagination)."""


def target_or_404(name: str, *, tier_set: bool = False) -> Target:
    targets = Target.objects.select_related("tier_set") if tier_set else Target.objects.all()
    try:
        return targets.get(name=name)
    except Target.DoesNotExist:
        raise Http404(f"No target named {name!r}.") from None
