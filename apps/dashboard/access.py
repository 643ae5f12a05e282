"""Who may use a dashboard page: the admin-only decorator every page family's writes share."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse

View = Callable[..., HttpResponse]


def staff_required(view: View) -> View:
    """Admins only (is_staff); everyone else gets 403 rather than a login loop."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.is_staff:
            raise PermissionDenied("This needs the admin role.")
        return view(request, *args, **kwargs)

    return wrapper
