"""The period picker's validation: a bad choice says what is wrong and falls back to the recommendations' window."""

from __future__ import annotations

import datetime as dt

import pytest
from django.http import QueryDict

from apps.dashboard.periods.picker import period_choice
from apps.snapshots.models import Snapshot
from apps.targets.models import Target

LATEST = dt.datetime(2026, 11, 20, 10, 0, tzinfo=dt.timezone.utc)
NOW = LATEST + dt.timedelta(hours=1)


@pytest.fixture
def target(db) -> Target:
    target = Target.objects.create(name="pick", mode=Target.Mode.DEMO)
    Snapshot.objects.create(target=target, kind="demo", dbid=1, instance_number=1, snap_id=1,
                            begin_at=LATEST - dt.timedelta(hours=1), end_at=LATEST,
                            startup_at=LATEST - dt.timedelta(days=9), top_n_only=False)
    return target


def _choice(target: Target, query: str):
    return period_choice(QueryDict(query), target_id=target.id, now=NOW)


@pytest.mark.django_db
class PeriodChoiceTests:
    def test_no_period_is_the_recommendations_window(self, target):
        choice = _choice(target, "")

        assert not choice.active and not choice.error
        with pytest.raises(ValueError, match="no period is chosen"):
            _ = choice.span

    def test_a_custom_range_covers_its_whole_days(self, target):
        choice = _choice(target, "period=custom&from=2026-11-01&to=2026-11-14&stat=avg")

        assert choice.active and choice.statistic == "avg"
        assert choice.start_at == dt.datetime(2026, 11, 1, tzinfo=dt.timezone.utc)
        assert choice.stop_at == dt.datetime(2026, 11, 15, tzinfo=dt.timezone.utc)
        assert choice.span == (choice.start_at, choice.stop_at)
        assert choice.words == "1–14 Nov 2026, average"

    def test_the_last_24_hours_end_with_the_latest_snapshot(self, target):
        choice = _choice(target, "period=24h")

        assert choice.statistic == "p95"
        assert choice.start_at > LATEST - dt.timedelta(hours=24) >= choice.start_at - dt.timedelta(seconds=1)
        assert choice.start_at <= LATEST < choice.stop_at

    def test_a_reversed_range_is_refused_with_a_message(self, target):
        choice = _choice(target, "period=custom&from=2026-11-14&to=2026-11-01")

        assert not choice.active
        assert "2026-11-01" in choice.error and "before" in choice.error and "recommendations' window" in choice.error

    def test_a_range_outside_retention_is_refused_with_a_message(self, target):
        choice = _choice(target, "period=custom&from=2026-09-01&to=2026-09-10")

        assert not choice.active and "outside the statistics kept" in choice.error

    def test_a_range_after_the_latest_snapshot_is_refused(self, target):
        choice = _choice(target, "period=custom&from=2026-11-19&to=2026-11-25")

        assert not choice.active and "outside the statistics kept" in choice.error

    @pytest.mark.parametrize("query", ["period=custom&from=2026-11-01", "period=custom&from=nope&to=2026-11-02",
                                       "period=week", "period=7d&stat=max"])
    def test_bad_input_never_raises_and_says_so(self, target, query):
        choice = _choice(target, query)

        assert not choice.active and choice.error

    def test_a_target_without_snapshots_has_no_period(self, db):
        empty = Target.objects.create(name="empty", mode=Target.Mode.DEMO)

        choice = _choice(empty, "period=7d")

        assert not choice.active and "No snapshot" in choice.error


def test_a_range_of_days_reads_as_a_label_says_it():
    import doctest

    from apps.dashboard.periods import picker as periods

    result = doctest.testmod(periods)
    assert result.attempted and not result.failed
