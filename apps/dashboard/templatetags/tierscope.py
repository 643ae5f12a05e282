"""Template filters: numbers with units (see apps/dashboard/formatting.py)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from django import template

from apps.dashboard import formatting

register = template.Library()


def _missing_is_none(fmt: Callable[[Any], str]) -> Callable[[Any], str]:
    """A missing attribute reaches a filter as "" (string_if_invalid): format it as no value."""

    @functools.wraps(fmt)
    def wrapper(value: Any) -> str:
        return fmt(None if value == "" else value)

    return wrapper


for _name, _fmt in (
    ("gb", formatting.fmt_gb), ("bytes_h", formatting.fmt_bytes), ("iops", formatting.fmt_iops),
    ("intensity", formatting.fmt_intensity), ("usd", formatting.fmt_usd), ("price", formatting.fmt_price),
    ("pct", formatting.fmt_pct), ("duration", formatting.fmt_duration),
):
    register.filter(_name, _missing_is_none(_fmt))


@register.simple_tag(takes_context=True)
def query_with(context: template.Context, **changes: object) -> str:
    """The current GET query string with some parameters replaced (for paging and sort links)."""
    params = context["request"].GET.copy()
    for key, value in changes.items():
        if value in (None, ""):
            params.pop(key, None)
        else:
            params[key] = str(value)
    if "sort" in changes:
        params.pop("page", None)  # a new order starts on page one
    encoded = params.urlencode()
    return f"?{encoded}" if encoded else "?"


@register.simple_tag(takes_context=True)
def sort_header(context: template.Context, key: str, label: str, numeric: bool = False) -> str:
    """A <th> whose link sorts the table by ``key`` (descending first; a second click flips it)."""
    from django.utils.html import format_html

    current = context.get("sort", "")
    if current == f"-{key}":
        new, aria = key, "descending"
    elif current == key:
        new, aria = f"-{key}", "ascending"
    else:
        new, aria = f"-{key}", "none"
    href = query_with(context, sort=new)
    # The arrow comes from CSS on aria-sort.
    return format_html('<th class="{}" aria-sort="{}"><a href="{}">{}</a></th>',
                       "num" if numeric else "", aria, href, label)


@register.filter
def spaced(code: str) -> str:
    """``flash_cache_none`` -> ``flash cache none``."""
    return (code or "").replace("_", " ")
