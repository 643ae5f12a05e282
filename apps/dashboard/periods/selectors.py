"""What the period picker changes on a page: the IO figures of the rows it shows, and the segment's chart.

Only the rows of the page are read (by segment id), never every segment of
the target. The recommendations (tiers, money) are untouched: the page says
which window they use.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.http import HttpRequest
from django.utils import timezone

from apps.dashboard.periods.picker import PARAMETERS, PeriodChoice, period_choice
from apps.snapshots.models import Segment
from apps.snapshots.periods import PeriodCoverage, SegmentFigures, period_coverage, segment_period_figures


@dataclass(frozen=True)
class PeriodView:
    """A page's period: the choice, what the period holds, and the figures of the page's segments by id."""

    choice: PeriodChoice
    coverage: PeriodCoverage | None = None
    figures: dict[int, SegmentFigures] = field(default_factory=dict)
    #: The other GET parameters of the page (filters, sort), which the picker's form carries on.
    carried: list[tuple[str, str]] = field(default_factory=list)

    @property
    def active(self) -> bool:
        return self.choice.active

    def of(self, segment_id: int) -> SegmentFigures | None:
        return self.figures.get(segment_id)


def _carried(request: HttpRequest) -> list[tuple[str, str]]:
    skip = {*PARAMETERS, "after", "before", "page"}
    return [(key, value) for key, values in request.GET.lists() if key not in skip for value in values]


def page_period(request: HttpRequest, *, target_id: int, rows: Sequence[Any] = (), segment_ids: Sequence[int] = (),
                now: dt.datetime | None = None) -> PeriodView:
    """The period a page asks for, with the figures of its ``rows`` (recommendations: their segment and size)
    and of ``segment_ids`` (sizes from their segments), two queries and the period's two snapshot counts."""
    choice = period_choice(request.GET, target_id=target_id, now=now or timezone.now())
    carried = _carried(request)
    if not choice.active:
        return PeriodView(choice=choice, carried=carried)
    sizes: dict[int, float | None] = {rec.segment_id: rec.size_gb for rec in rows}
    if segment_ids:
        sizes.update({pk: None if size is None else size / 1024**3 for pk, size in Segment.objects.filter(
            pk__in=list(segment_ids)).values_list("id", "size_bytes")})
    start_at, stop_at = choice.span
    coverage = period_coverage(target_id=target_id, start_at=start_at, stop_at=stop_at)
    figures = segment_period_figures(target_id=target_id, segment_ids=list(sizes), start_at=start_at,
                                     stop_at=stop_at, statistic=choice.statistic, sizes_gb=sizes,
                                     coverage=coverage)
    return PeriodView(choice=choice, coverage=coverage, figures=figures, carried=carried)


def period_series(series: list[Any], period: PeriodView) -> list[Any]:
    """A segment's per-snapshot series cut to the period (all of it when no period is chosen)."""
    if not period.active:
        return series
    return [sample for sample in series if period.choice.start_at <= sample.end_at < period.choice.stop_at]


def period_context(period: PeriodView, *, iops_label: str) -> dict[str, Any]:
    """The template context of a page's period: ``period``, and the IOPS column's label naming it."""
    if not period.active:
        return {"period": period}
    return {"period": period, "iops_label": f"IO/s ({period.choice.words})", "recommended_iops_label": iops_label}
