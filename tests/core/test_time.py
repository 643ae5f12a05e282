"""UTC days: 24 hours each whatever the zone's daylight saving, the ends of months and leap days."""

from __future__ import annotations

import datetime as dt
import doctest
import unittest
from zoneinfo import ZoneInfo

from apps.core import time
from apps.core.time import UTC, day_bounds, day_start, days_of, floor_day, utc_day

PARIS = ZoneInfo("Europe/Paris")


class DayBoundsTests(unittest.TestCase):
    def test_it_bounds_a_day_from_midnight_to_the_next_midnight_in_utc(self):
        start, stop = day_bounds(dt.date(2026, 11, 24))

        self.assertEqual(start, dt.datetime(2026, 11, 24, tzinfo=UTC))
        self.assertEqual(stop, dt.datetime(2026, 11, 25, tzinfo=UTC))

    def test_a_day_when_clocks_change_is_24_hours_long(self):
        # Europe's clocks went forward on 2026-03-29 and back on 2026-10-25: a UTC day does not notice.
        for day in (dt.date(2026, 3, 29), dt.date(2026, 10, 25)):
            start, stop = day_bounds(day)
            self.assertEqual(stop - start, dt.timedelta(hours=24), day)
            self.assertEqual(start.utcoffset(), dt.timedelta(0))

    def test_the_last_day_of_a_month_ends_at_the_first_of_the_next(self):
        self.assertEqual(day_bounds(dt.date(2026, 4, 30))[1], dt.datetime(2026, 5, 1, tzinfo=UTC))
        self.assertEqual(day_bounds(dt.date(2026, 12, 31))[1], dt.datetime(2027, 1, 1, tzinfo=UTC))

    def test_a_leap_day_is_a_day_of_its_own(self):
        self.assertEqual(day_bounds(dt.date(2028, 2, 28))[1], dt.datetime(2028, 2, 29, tzinfo=UTC))
        self.assertEqual(day_bounds(dt.date(2028, 2, 29)),
                         (dt.datetime(2028, 2, 29, tzinfo=UTC), dt.datetime(2028, 3, 1, tzinfo=UTC)))
        self.assertEqual(day_bounds(dt.date(2027, 2, 28))[1], dt.datetime(2027, 3, 1, tzinfo=UTC))

    def test_a_range_of_days_runs_from_the_first_midnight_to_the_one_after_the_last(self):
        start, stop = day_bounds(dt.date(2028, 2, 27), dt.date(2028, 3, 1))

        self.assertEqual(start, dt.datetime(2028, 2, 27, tzinfo=UTC))
        self.assertEqual(stop, dt.datetime(2028, 3, 2, tzinfo=UTC))
        self.assertEqual(stop - start, dt.timedelta(days=4))

    def test_a_day_starts_at_midnight_utc(self):
        self.assertEqual(day_start(dt.date(2024, 2, 29)), dt.datetime(2024, 2, 29, tzinfo=UTC))


class UtcDayTests(unittest.TestCase):
    def test_a_moment_belongs_to_its_utc_day_not_its_local_one(self):
        local_morning = dt.datetime(2026, 3, 30, 1, 30, tzinfo=PARIS)  # 23:30 UTC the day before

        self.assertEqual(utc_day(local_morning), dt.date(2026, 3, 29))
        self.assertEqual(floor_day(local_morning), dt.datetime(2026, 3, 29, tzinfo=UTC))

    def test_the_hour_a_clock_change_repeats_falls_on_one_utc_day(self):
        # 2026-10-25 02:30 happens twice in Paris; in UTC they are two different hours of the same day.
        first = dt.datetime(2026, 10, 25, 2, 30, tzinfo=PARIS, fold=0)
        second = dt.datetime(2026, 10, 25, 2, 30, tzinfo=PARIS, fold=1)

        self.assertEqual(utc_day(first), utc_day(second))
        self.assertEqual(floor_day(first), floor_day(second))

    def test_a_range_covers_the_days_it_touches_and_not_the_day_it_stops_at(self):
        self.assertEqual(days_of(*day_bounds(dt.date(2028, 2, 29))), (dt.date(2028, 2, 29), dt.date(2028, 2, 29)))
        self.assertEqual(days_of(dt.datetime(2026, 1, 31, 23, tzinfo=UTC), dt.datetime(2026, 2, 1, 0, 1, tzinfo=UTC)),
                         (dt.date(2026, 1, 31), dt.date(2026, 2, 1)))

    def test_the_examples_in_the_docstrings_hold(self):
        failures, tried = doctest.testmod(time)

        self.assertGreater(tried, 0)
        self.assertEqual(failures, 0)
