"""Template filters of the period picker (apps.dashboard.periods)."""

from __future__ import annotations

from typing import Any

from django import template

register = template.Library()


@register.filter
def in_period(rec: Any, period: Any) -> Any:
    """``{{ rec|in_period:period }}``: the segment's figures over the chosen period (shaped as a
    recommendation's, so rec_iops and rec_intensity show them), or ``rec`` itself when no period is chosen."""
    if not period or not getattr(period, "active", False):
        return rec
    return period.of(rec.segment_id) or rec
