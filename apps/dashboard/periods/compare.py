"""The compare-two-periods page: its form (GET), and one page of the comparison's rows.

The comparison of every segment of the target (apps.snapshots.period_compare)
is computed once per pair of periods and kept in the cache while the rollups
of their days are unchanged, so sorting, filtering and paging it reads no
statistics again; a page then reads the names of its 100 rows only.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypedDict

import numpy as np
from django import forms
from django.core.cache import cache
from django.core.paginator import Paginator
from django.http import QueryDict

from apps.dashboard import formatting
from apps.dashboard.periods.picker import STATISTIC_WORDS, day_range_check, day_range_words
from apps.dashboard.search.selectors import segment_ids_matching
from apps.dashboard.selectors import segment_label
from apps.snapshots.models import Segment
from apps.snapshots.period_compare import (
    ABSENT,
    BOTH,
    GONE,
    NEW,
    PARTIAL,
    Comparison,
    comparison_order,
    periods_compare,
)
from apps.snapshots.periods import PERIOD_STATISTICS, PeriodBounds
from apps.snapshots.rollups import day_versions, segment_days_roll_up

PAGE_SIZE = 100
CACHE_SECONDS = 600
ORDER_WORDS = {"change": "largest change", "rise": "largest rise", "fall": "largest fall",
               "relative": "largest relative change", "a": "period A's IO/s", "b": "period B's IO/s"}
SHOW_WORDS = {"": "every segment", BOTH: "measured in both", NEW: "new", GONE: "gone"}


class _DateOptions(TypedDict):
    input_formats: list[str]
    required: bool


_DATE: _DateOptions = {"input_formats": ["%Y-%m-%d"], "required": False}


class CompareForm(forms.Form):
    a_from = forms.DateField(label="A from", **_DATE)
    a_to = forms.DateField(label="A to", **_DATE)
    b_from = forms.DateField(label="B from", **_DATE)
    b_to = forms.DateField(label="B to", **_DATE)
    stat = forms.ChoiceField(required=False, label="Statistic",
                             choices=[(code, STATISTIC_WORDS[code]) for code in PERIOD_STATISTICS])
    sort = forms.ChoiceField(required=False, label="Order", choices=list(ORDER_WORDS.items()))
    show = forms.ChoiceField(required=False, label="Show", choices=list(SHOW_WORDS.items()))
    q = forms.CharField(required=False, max_length=128, label="Name contains")

    def __init__(self, data: QueryDict, *, bounds: PeriodBounds | None) -> None:
        super().__init__({name: data.get(name, "") for name in self.base_fields})
        self.bounds = bounds

    def defaults(self) -> dict[str, dt.date]:
        """B: the last 7 days of the statistics; A: the 7 days before them."""
        last = self.bounds.last_day if self.bounds else dt.datetime.now(dt.timezone.utc).date()
        return {"b_to": last, "b_from": last - dt.timedelta(days=6), "a_to": last - dt.timedelta(days=7),
                "a_from": last - dt.timedelta(days=13)}

    def clean(self) -> dict:
        super().clean()  # Form.clean returns cleaned_data (typed optional by django-stubs)
        cleaned = self.cleaned_data
        if self.bounds is None:
            raise forms.ValidationError("No snapshot is stored for this target yet: there is nothing to compare.")
        defaults = self.defaults()
        for name, default in defaults.items():
            if cleaned.get(name) is None and name not in self.errors:
                cleaned[name] = default
        for period in ("a", "b"):
            first, last = cleaned.get(f"{period}_from"), cleaned.get(f"{period}_to")
            if first is None or last is None:
                continue
            name = period.upper()
            day_range_check(first, last, self.bounds, backwards=f"Period {name} ends ({last}) before it starts ({first}).",
                            outside=f"Period {name}, {first} to {last}, is outside the statistics kept, "
                                    f"{self.bounds.first_day} to {self.bounds.last_day}.")
        return cleaned


@dataclass(frozen=True)
class CompareRow:
    segment_id: int
    label: str
    object_type: str
    tablespace: str
    status: str
    a: str
    b: str
    change: str
    relative: str


def _iops_text(state: int, value: float, bound: float, coverage_empty: bool) -> str:
    if coverage_empty:
        return "nothing measured"
    if state == PARTIAL:
        return "not measured" + ("" if np.isnan(bound) else f" (≤ {formatting.fmt_iops(float(bound))})")
    if state == ABSENT:
        return "not captured" if np.isnan(value) else "no IO (absent)"
    return formatting.fmt_iops(float(value))


def _signed(value: float, fmt) -> str:
    return ("+" if value > 0 else "") + fmt(value)


def _change_text(comparison: Comparison, i: int) -> tuple[str, str]:
    change, relative, status = comparison.change[i], comparison.relative[i], comparison.status[i]
    absolute = "unknown" if np.isnan(change) else _signed(float(change), formatting.fmt_iops)
    if status in (NEW, GONE):
        return absolute, status
    if np.isnan(relative):
        return absolute, "unknown" if np.isnan(change) else "— (from no IO)"
    return absolute, _signed(float(relative) * 100, lambda v: f"{v:.0f} %")


def comparison_cached(*, target_id: int, a_days: tuple[dt.date, dt.date], b_days: tuple[dt.date, dt.date],
                      statistic: str) -> Comparison:
    """:func:`periods_compare`, kept in the cache while the rollups of the periods' days stay as they are."""
    segment_days_roll_up(target_id=target_id)
    # The open day's version may be its part's (RollupHour): day_versions takes the higher.
    days = sorted(day_versions(target_id=target_id, first_day=min(a_days[0], b_days[0]),
                               last_day=max(a_days[1], b_days[1])).items())
    digest = hashlib.sha1(repr((target_id, a_days, b_days, statistic, days)).encode()).hexdigest()
    key = f"tierscope:periods-compare:{digest}"
    comparison = cache.get(key)
    if comparison is None:
        comparison = periods_compare(target_id=target_id, a_days=a_days, b_days=b_days, statistic=statistic,
                                     roll_up=False)
        cache.set(key, comparison, CACHE_SECONDS)
    return comparison


def compare_page(*, target_id: int, form: CompareForm, page_number: Any) -> dict[str, Any]:
    """The comparison's context: the periods in words, counts by status, and one page of rows."""
    data = form.cleaned_data
    a_days, b_days = (data["a_from"], data["a_to"]), (data["b_from"], data["b_to"])
    statistic, order = data.get("stat") or "p95", data.get("sort") or "change"
    comparison = comparison_cached(target_id=target_id, a_days=a_days, b_days=b_days, statistic=statistic)
    rows = np.arange(len(comparison))
    show, text = data.get("show") or "", (data.get("q") or "").strip()
    if show:
        rows = rows[comparison.status[rows] == show]
    if text:
        matching = np.fromiter(Segment.objects.filter(target_id=target_id, id__in=segment_ids_matching(
            text, target_id=target_id)).values_list("id", flat=True), dtype=np.int64)
        rows = rows[np.isin(comparison.segment_id[rows], matching)]
    page = Paginator(comparison_order(comparison, order=order, rows=rows), PAGE_SIZE).get_page(page_number)
    picked = [int(i) for i in page.object_list]
    segments = {seg["id"]: seg for seg in Segment.objects.filter(pk__in=[int(comparison.segment_id[i]) for i in picked])
                .values("id", "owner", "object_name", "subobject_name", "parent_partition", "container", "object_type",
                        "tablespace_name")}
    out = []
    for i in picked:
        pk = int(comparison.segment_id[i])
        seg: Mapping[str, Any] = segments.get(pk, {})
        change, relative = _change_text(comparison, i)
        out.append(CompareRow(
            segment_id=pk, status=str(comparison.status[i]),
            label=segment_label(seg.get("owner", "?"), seg.get("object_name", str(pk)), seg.get("subobject_name", ""),
                                seg.get("parent_partition", ""), seg.get("container", "")),
            object_type=seg.get("object_type", ""), tablespace=seg.get("tablespace_name") or "",
            a=_iops_text(comparison.a_state[i], comparison.a_iops[i], comparison.a_bound[i],
                         comparison.a_coverage.empty),
            b=_iops_text(comparison.b_state[i], comparison.b_iops[i], comparison.b_bound[i],
                         comparison.b_coverage.empty),
            change=change, relative=relative))
    statuses, counts = np.unique(comparison.status, return_counts=True)
    return {"comparison": comparison, "rows": out, "page": page, "matched": int(rows.size),
            "counts": dict(zip(statuses.tolist(), counts.tolist())),
            "a_words": day_range_words(*a_days), "b_words": day_range_words(*b_days),
            "statistic_words": STATISTIC_WORDS[statistic], "order_words": ORDER_WORDS[order]}
