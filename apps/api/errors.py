"""Every error the API answers is JSON with one line saying what is wrong and where (``detail``), plus the
per-field messages of a validation error (``errors``); never an HTML page."""

from __future__ import annotations

from typing import Any

from rest_framework import exceptions
from rest_framework.response import Response
from rest_framework.views import exception_handler


class BadRequest(exceptions.ValidationError):
    """A bad query parameter or body field: ``BadRequest("limit", "must be a whole number, got 'x'")``."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__({field: [message]})


def _lines(errors: Any, prefix: str = "") -> list[str]:
    if isinstance(errors, dict):
        return [line for key, value in errors.items()
                for line in _lines(value, f"{prefix}{key}: " if key != "non_field_errors" else prefix)]
    if isinstance(errors, list):
        return [line for value in errors for line in _lines(value, prefix)]
    return [f"{prefix}{errors}"]


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    response = exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        errors = response.data if isinstance(response.data, dict) else {"non_field_errors": response.data}
        response.data = {"detail": "; ".join(_lines(errors)), "errors": errors}
    elif not isinstance(response.data, dict) or "detail" not in response.data:
        response.data = {"detail": str(response.data)}
    request = context.get("request")
    if request is not None and isinstance(response.data, dict):
        response.data.setdefault("where", f"{request.method} {request.path}")
    return response
