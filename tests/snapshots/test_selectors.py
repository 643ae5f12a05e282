"""Reads of a target's snapshots: what a window's figures actually cover (WindowCoverage)."""

from __future__ import annotations

import datetime as dt
import doctest

import pytest

from apps.snapshots import selectors
from apps.snapshots.models import Snapshot
from apps.snapshots.selectors import WindowCoverage, window_coverage
from apps.targets.models import Target

UTC = dt.timezone.utc
DAY = dt.date(2026, 11, 20)


def test_the_docstring_examples_hold():
    result = doctest.testmod(selectors)
    assert result.attempted > 0 and result.failed == 0


def at(hour: float, day: dt.date = DAY) -> dt.datetime:
    return dt.datetime.combine(day, dt.time(), tzinfo=UTC) + dt.timedelta(hours=hour)


def snapshot(target: Target, snap_id: int, begin: dt.datetime, end: dt.datetime, *, kind: str = "awr",
             instance: int = 1, dbid: int = 1) -> Snapshot:
    return Snapshot.objects.create(target=target, kind=kind, dbid=dbid, instance_number=instance, snap_id=snap_id,
                                   begin_at=begin, end_at=end, startup_at=at(-48), top_n_only=kind != "sample")


def coverage(target: Target, days: int = 7) -> WindowCoverage:
    return window_coverage(target_id=target.id, first_day=DAY - dt.timedelta(days=days - 1), last_day=DAY,
                           statistic="p95")


@pytest.mark.django_db
class WindowCoverageTests:
    @pytest.fixture
    def target(self):
        return Target.objects.create(name="t", mode=Target.Mode.REPORT)

    def test_one_report_of_22_hours_is_one_22_hour_interval_not_the_windows_7_days(self, target):
        snapshot(target, 204, at(-18), at(4))

        covered = coverage(target)

        assert (covered.intervals, covered.begin_at, covered.end_at) == (1, at(-18), at(4))
        assert covered.words == "one 22 h interval"
        assert covered.detail == "one snapshot interval of 22 h, 2026-11-19 06:00 to 2026-11-20 04:00 UTC"

    def test_the_instances_of_one_rac_snapshot_are_one_interval(self, target):
        for instance in (1, 2):
            snapshot(target, 10, at(1), at(2, ), instance=instance)
            snapshot(target, 11, at(2), at(3), instance=instance)

        covered = coverage(target)

        assert covered.intervals == 2 and covered.words == "P95 over 2 h"
        assert covered.detail.startswith("P95 of 2 snapshot intervals of 1 h, ")

    def test_v_samples_beside_awr_snapshots_are_not_counted_again(self, target):
        for k in range(3):
            snapshot(target, k, at(k), at(k + 1))
            snapshot(target, 100 + k, at(k), at(k + 1), kind="sample")

        assert coverage(target).intervals == 3

    def test_only_the_current_databases_snapshots_and_the_windows_days_count(self, target):
        snapshot(target, 1, at(-30 * 24), at(-30 * 24 + 1))  # long before the window
        snapshot(target, 2, at(1), at(2), dbid=7)  # the database before it was recreated
        snapshot(target, 3, at(5), at(6), dbid=8)

        covered = coverage(target)

        assert (covered.intervals, covered.begin_at, covered.end_at) == (1, at(5), at(6))

    def test_an_empty_window_measured_nothing(self, target):
        covered = coverage(target)

        assert covered.intervals == 0 and covered.words == "nothing measured"
        assert covered.detail == "no snapshot in the window"
