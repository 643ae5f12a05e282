"""Bounded pages: 100 rows unless ``limit`` says otherwise, never more than 1000; a ``limit`` or ``offset``
that is not a whole number in range is a 400 naming it, not a silent default."""

from __future__ import annotations

from rest_framework.pagination import LimitOffsetPagination

from apps.api.errors import BadRequest

DEFAULT_LIMIT = 100
MAX_LIMIT = 1000
MAX_OFFSET = 10**9  # PostgreSQL takes a bigint; no list is that long


def bounded_int(params, name: str, *, default: int, low: int, high: int | None = None) -> int:
    """``params[name]`` as an int in [low, high], ``default`` when absent; BadRequest otherwise."""
    raw = params.get(name)
    if raw in (None, ""):
        return default
    try:
        value = int(raw)
    except (TypeError, ValueError):
        raise BadRequest(name, f"must be a whole number, got {raw!r}") from None
    if value < low or (high is not None and value > high):
        bounds = f"from {low} to {high}" if high is not None else f"at least {low}"
        raise BadRequest(name, f"must be {bounds}, got {value}")
    return value


class BoundedLimitOffsetPagination(LimitOffsetPagination):
    default_limit = DEFAULT_LIMIT
    max_limit = MAX_LIMIT

    def get_limit(self, request) -> int:
        return bounded_int(request.query_params, self.limit_query_param, default=self.default_limit, low=1,
                           high=self.max_limit)

    def get_offset(self, request) -> int:
        return bounded_int(request.query_params, self.offset_query_param, default=0, low=0, high=MAX_OFFSET)
