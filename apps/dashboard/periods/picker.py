"""The period picker of the target, segment and recommendations pages: which period's measured IO to show.

Query parameters ``period`` (24h, 7d, 30d or custom, with ``from`` and ``to``
as YYYY-MM-DD) and ``stat`` (p95 or avg). No period: the page shows the
recommendations' own figures. A chosen period is a view of the measured IO
only: the recommended tiers and the money stay those of the configured
window, and the page says so. A bad choice (a range reversed or outside the
statistics kept) gets a message and the page falls back to the configured
window.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from urllib.parse import urlencode

from django import forms
from django.http import QueryDict

from apps.core.time import day_bounds
from apps.snapshots.periods import PERIOD_STATISTICS, PeriodBounds, period_bounds

#: The periods offered: code -> (label, length) (custom: two dates).
PERIODS = {"24h": ("last 24 h", dt.timedelta(hours=24)), "7d": ("last 7 days", dt.timedelta(days=7)),
           "30d": ("last 30 days", dt.timedelta(days=30))}
STATISTIC_WORDS = {"p95": "p95", "avg": "average"}
#: The query parameters of the picker (kept on the pages' other links).
PARAMETERS = ("period", "from", "to", "stat")


class PeriodForm(forms.Form):
    """The picker. ``bounds``: the days the target's statistics cover (None: nothing collected)."""

    period = forms.ChoiceField(required=False, label="Period", choices=[
        ("", "recommendations' window"), *((code, label) for code, (label, _) in PERIODS.items()),
        ("custom", "custom range")])
    from_day = forms.DateField(required=False, label="From", input_formats=["%Y-%m-%d"],
                               widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"))
    to_day = forms.DateField(required=False, label="To", input_formats=["%Y-%m-%d"],
                             widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"))
    stat = forms.ChoiceField(required=False, label="Statistic",
                             choices=[(code, STATISTIC_WORDS[code]) for code in PERIOD_STATISTICS])

    def __init__(self, data: QueryDict, *, bounds: PeriodBounds | None) -> None:
        # ``from`` is a Python keyword: the fields are named from_day/to_day and read from "from"/"to".
        super().__init__({"period": data.get("period", ""), "from_day": data.get("from", ""),
                          "to_day": data.get("to", ""), "stat": data.get("stat", "")})
        self.bounds = bounds

    def clean(self) -> dict:
        super().clean()  # Form.clean returns cleaned_data (typed optional by django-stubs)
        cleaned = self.cleaned_data
        period = cleaned.get("period") or ""
        if not period:
            return cleaned
        if self.bounds is None:
            raise forms.ValidationError("No snapshot is stored for this target yet: there is no period to show.")
        if period != "custom":
            return cleaned
        first, last = cleaned.get("from_day"), cleaned.get("to_day")
        if first is None or last is None:
            raise forms.ValidationError("A custom period needs both dates, From and To (YYYY-MM-DD).")
        day_range_check(first, last, self.bounds, backwards=f"The period's To ({last}) is before its From ({first}).",
                        outside=f"The period {first} to {last} is outside the statistics kept, "
                                f"{self.bounds.first_day} to {self.bounds.last_day} (RETENTION_DAYS before the "
                                f"latest snapshot).")
        return cleaned


def day_range_check(first: dt.date, last: dt.date, bounds: PeriodBounds, *, backwards: str, outside: str) -> None:
    """A ValidationError saying ``backwards`` when the range ends before it starts, ``outside`` when it leaves
    the days the statistics cover (``bounds``)."""
    if last < first:
        raise forms.ValidationError(backwards)
    if first < bounds.first_day or last > bounds.last_day:
        raise forms.ValidationError(outside)


@dataclass(frozen=True)
class PeriodChoice:
    """What the picker asked for: active (a period chosen and valid) or not, with the error when invalid."""

    form: PeriodForm
    active: bool = False
    start_at: dt.datetime | None = None
    stop_at: dt.datetime | None = None
    statistic: str = "p95"
    label: str = ""
    error: str = ""
    params: dict[str, str] = field(default_factory=dict)

    @property
    def span(self) -> tuple[dt.datetime, dt.datetime]:
        """(start_at, stop_at) of an active choice; a ValueError when no period was chosen."""
        if self.start_at is None or self.stop_at is None:
            raise ValueError("no period is chosen: the recommendations' window is shown")
        return self.start_at, self.stop_at

    @property
    def statistic_words(self) -> str:
        return STATISTIC_WORDS.get(self.statistic, self.statistic)

    @property
    def words(self) -> str:
        """"1–14 Nov 2026, average": what a column header or the banner names."""
        return f"{self.label}, {self.statistic_words}"

    @property
    def query(self) -> str:
        """The picker's parameters as a query string (``&``-joined), for links that keep the period."""
        return urlencode(self.params)


def day_range_words(first: dt.date, last: dt.date) -> str:
    """A range of days as a label says it.

    >>> day_range_words(dt.date(2026, 11, 1), dt.date(2026, 11, 14))
    '1–14 Nov 2026'
    >>> day_range_words(dt.date(2026, 10, 30), dt.date(2026, 11, 2)), day_range_words(dt.date(2026, 11, 3), dt.date(2026, 11, 3))
    ('30 Oct – 2 Nov 2026', '3 Nov 2026')
    """
    if first == last:
        return f"{first.day} {first:%b %Y}"
    if (first.year, first.month) == (last.year, last.month):
        return f"{first.day}–{last.day} {last:%b %Y}"
    if first.year == last.year:
        return f"{first.day} {first:%b} – {last.day} {last:%b %Y}"
    return f"{first.day} {first:%b %Y} – {last.day} {last:%b %Y}"


def period_choice(query: QueryDict, *, target_id: int, now: dt.datetime) -> PeriodChoice:
    """The period a page's query asks for (see the module docstring); no query when none is asked for."""
    if not any(query.get(name) for name in PARAMETERS):
        return PeriodChoice(form=PeriodForm(query, bounds=None))
    bounds = period_bounds(target_id=target_id, now=now)
    form = PeriodForm(query, bounds=bounds)
    if not form.is_valid():
        errors = "; ".join(f"{form.fields[name].label if name in form.fields else 'Period'}: {' '.join(map(str, messages))}"
                           if name != "__all__" else " ".join(map(str, messages)) for name, messages in form.errors.items())
        return PeriodChoice(form=form, error=f"{errors} Showing the recommendations' window instead.")
    data = form.cleaned_data
    period, statistic = data.get("period") or "", data.get("stat") or "p95"
    if not period:
        return PeriodChoice(form=form)
    assert bounds is not None  # the form says so
    params = {"period": period, "stat": statistic}
    if period == "custom":
        first, last = data["from_day"], data["to_day"]
        start, stop = day_bounds(first, last)
        label = day_range_words(first, last)
        params.update({"from": first.isoformat(), "to": last.isoformat()})
    else:
        # The snapshots that end after the latest one's end less the length, up to it (a snapshot ends
        # at a second: a microsecond past an end keeps it in, a half-open range of end times).
        words, length = PERIODS[period]
        tick = dt.timedelta(microseconds=1)
        start, stop = bounds.latest_at - length + tick, bounds.latest_at + tick
        label = f"{words} to {bounds.latest_at.astimezone(dt.timezone.utc):%Y-%m-%d %H:%M} UTC"
    return PeriodChoice(form=form, active=True, start_at=start, stop_at=stop, statistic=statistic, label=label,
                        params=params)
