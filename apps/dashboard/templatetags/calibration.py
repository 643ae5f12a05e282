"""Template filters of the calibration figures (issue 17)."""

from __future__ import annotations

from typing import Any

from django import template

register = template.Library()


@register.filter
def latency_ms(value: Any) -> str:
    """A latency with up to three significant digits, as a benchmark prints it.

    >>> latency_ms(0.135557), latency_ms(0.2), latency_ms(12.0), latency_ms(None)
    ('0.136 ms', '0.2 ms', '12 ms', '—')
    """
    if value is None or value == "":
        return "—"
    return f"{float(value):.3g} ms"
