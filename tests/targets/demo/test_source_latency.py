from __future__ import annotations

import datetime as dt
import unittest
from unittest import mock

from apps.targets.base import CollectState
from apps.targets.demo import source as demo_source
from apps.targets.demo.source import FIXED_ROUND_TRIPS, ROUNDTRIP_ENV, DemoSource

NOW = dt.datetime(2026, 11, 20, 11, 0, tzinfo=dt.timezone.utc)


def _collect(source: DemoSource, hours: int = 24):
    return source.collect(CollectState(now=NOW, history_start_at=NOW - dt.timedelta(hours=hours)))


class RoundTripLatencyTests(unittest.TestCase):
    def test_it_sleeps_the_set_latency_for_each_round_trip_it_stands_for(self) -> None:
        source = DemoSource(roundtrip_ms=50)
        with mock.patch.object(demo_source.time, "sleep") as sleep:
            collection = _collect(source)
        trips = FIXED_ROUND_TRIPS + len(collection.snapshots)
        self.assertEqual(source.round_trips, trips)
        self.assertAlmostEqual(sum(call.args[0] for call in sleep.call_args_list), trips * 0.050)

    def test_it_does_not_sleep_without_a_latency_but_still_counts(self) -> None:
        with mock.patch.dict("os.environ", {ROUNDTRIP_ENV: "0"}):
            source = DemoSource()
        with mock.patch.object(demo_source.time, "sleep") as sleep:
            _collect(source)
        sleep.assert_not_called()
        self.assertEqual(source.round_trips, FIXED_ROUND_TRIPS + 24)

    def test_the_latency_comes_from_the_environment_when_not_given(self) -> None:
        with mock.patch.dict("os.environ", {ROUNDTRIP_ENV: "12.5"}):
            self.assertEqual(DemoSource().roundtrip_ms, 12.5)

    def test_a_bad_latency_is_refused_naming_the_variable(self) -> None:
        with mock.patch.dict("os.environ", {ROUNDTRIP_ENV: "fast"}), \
                self.assertRaisesRegex(ValueError, ROUNDTRIP_ENV):
            DemoSource()
        with self.assertRaisesRegex(ValueError, "0-60000 ms"):
            DemoSource(roundtrip_ms=-1)
