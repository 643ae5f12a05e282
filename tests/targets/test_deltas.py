"""Cumulative counters -> interval deltas: restarts, gaps, decreases, dbid changes."""

from __future__ import annotations

import datetime as dt
import unittest

from apps.targets.deltas import CumulativePoint, counter_deltas, cumulative_deltas, sample_interval
from apps.targets.rows import CounterSample, SegmentKey

UTC = dt.timezone.utc
STARTUP = dt.datetime(2024, 5, 1, 6, 0, tzinfo=UTC)
RESTART = dt.datetime(2024, 5, 2, 3, 0, tzinfo=UTC)
T0 = dt.datetime(2024, 5, 2, 1, 0, tzinfo=UTC)
ORDERS = SegmentKey("SHOP", "ORDERS", "P2024_05", "TABLE PARTITION")
ITEMS = SegmentKey("App", "OrderLines", "", "TABLE")


def sample(minutes: int, *, startup: dt.datetime = STARTUP, instance: int = 1,
           segments: dict[SegmentKey, dict[str, int]] | None = None,
           places: dict[SegmentKey, tuple[str, int | None, int | None]] | None = None,
           sysstats: dict[str, int] | None = None,
           tablespaces: dict[str, tuple[int, int, float | None]] | None = None) -> CounterSample:
    return CounterSample(
        instance_number=instance,
        startup_at=startup,
        sampled_at=T0 + dt.timedelta(minutes=minutes),
        segment_totals=segments or {},
        segment_places=places or {key: ("USERS", 10, 20) for key in (segments or {})},
        sysstat_totals=sysstats or {},
        tablespace_totals=tablespaces or {},
    )


class SampleIntervalTests(unittest.TestCase):
    def test_it_returns_none_without_a_previous_sample(self) -> None:
        self.assertIsNone(sample_interval(None, sample(10), dbid=7))

    def test_it_makes_an_interval_snapshot_from_two_samples(self) -> None:
        before = sample(0, segments={ORDERS: {"physical_read_requests": 100, "logical_reads": 1000}},
                        sysstats={"physical read IO requests": 5000},
                        tablespaces={"USERS": (400, 40, 800.0)})
        after = sample(10, segments={ORDERS: {"physical_read_requests": 160, "logical_reads": 1900}},
                       sysstats={"physical read IO requests": 5600},
                       tablespaces={"USERS": (460, 50, 950.0)})

        snapshot = sample_interval(before, after, dbid=7)

        assert snapshot is not None
        self.assertEqual((snapshot.dbid, snapshot.instance_number), (7, 1))
        self.assertEqual(snapshot.snap_id, int(after.sampled_at.timestamp()))
        self.assertEqual((snapshot.begin_at, snapshot.end_at, snapshot.startup_at),
                         (before.sampled_at, after.sampled_at, STARTUP))
        self.assertFalse(snapshot.top_n_only)
        self.assertEqual(snapshot.interval_seconds, 600)
        [stat] = snapshot.segment_stats
        self.assertEqual((stat.key, stat.physical_read_requests, stat.logical_reads), (ORDERS, 60, 900))
        self.assertIsNone(stat.physical_write_requests)
        self.assertEqual((stat.tablespace_name, stat.obj_number, stat.dataobj_number), ("USERS", 10, 20))
        self.assertEqual([(s.name, s.value) for s in snapshot.sysstats], [("physical read IO requests", 600)])
        [io] = snapshot.tablespace_io
        self.assertEqual((io.tablespace_name, io.read_requests, io.write_requests, io.read_time_ms),
                         ("USERS", 60, 10, 150.0))

    def test_it_starts_a_new_baseline_after_a_restart(self) -> None:
        before = sample(0, segments={ORDERS: {"physical_read_requests": 100}})
        after = sample(120, startup=RESTART, segments={ORDERS: {"physical_read_requests": 5}})
        self.assertIsNone(sample_interval(before, after, dbid=7))

    def test_it_refuses_a_non_positive_interval(self) -> None:
        self.assertIsNone(sample_interval(sample(10), sample(10), dbid=7))
        self.assertIsNone(sample_interval(sample(10), sample(5), dbid=7))

    def test_it_never_gives_a_negative_delta_for_a_recreated_segment(self) -> None:
        before = sample(0, segments={ORDERS: {"physical_read_requests": 100, "logical_reads": 50},
                                     ITEMS: {"physical_read_requests": 1}})
        after = sample(10, segments={ORDERS: {"physical_read_requests": 30, "logical_reads": 80},
                                     ITEMS: {"physical_read_requests": 4}})
        snapshot = sample_interval(before, after, dbid=7)
        assert snapshot is not None
        self.assertEqual([s.key for s in snapshot.segment_stats], [ITEMS])

    def test_it_skips_a_segment_whose_data_object_changed(self) -> None:
        # TRUNCATE gives a new DATAOBJ#: the counters restarted even if they happen to be higher.
        before = sample(0, segments={ORDERS: {"logical_reads": 10}}, places={ORDERS: ("USERS", 10, 20)})
        after = sample(10, segments={ORDERS: {"logical_reads": 50}}, places={ORDERS: ("USERS", 10, 21)})
        snapshot = sample_interval(before, after, dbid=7)
        assert snapshot is not None
        self.assertEqual(snapshot.segment_stats, ())

    def test_it_skips_segments_missing_from_the_previous_sample(self) -> None:
        before = sample(0, segments={ITEMS: {"logical_reads": 5}})
        after = sample(10, segments={ITEMS: {"logical_reads": 9}, ORDERS: {"logical_reads": 10_000}})
        snapshot = sample_interval(before, after, dbid=7)
        assert snapshot is not None
        self.assertEqual([(s.key, s.logical_reads) for s in snapshot.segment_stats], [(ITEMS, 4)])

    def test_it_leaves_out_idle_segments(self) -> None:
        before = sample(0, segments={ITEMS: {"logical_reads": 5}})
        after = sample(10, segments={ITEMS: {"logical_reads": 5}})
        snapshot = sample_interval(before, after, dbid=7)
        assert snapshot is not None
        self.assertEqual(snapshot.segment_stats, ())

    def test_it_drops_decreasing_system_and_tablespace_counters(self) -> None:
        before = sample(0, sysstats={"flash cache inserts": 10, "physical reads": 5},
                        tablespaces={"USERS": (10, 10, 5.0), "UNDO": (5, 5, None)})
        after = sample(10, sysstats={"flash cache inserts": 4, "physical reads": 9},
                       tablespaces={"USERS": (12, 9, 6.0), "UNDO": (6, 7, None)})
        snapshot = sample_interval(before, after, dbid=7)
        assert snapshot is not None
        self.assertEqual([(s.name, s.value) for s in snapshot.sysstats], [("physical reads", 4)])
        self.assertEqual([(t.tablespace_name, t.read_requests, t.read_time_ms) for t in snapshot.tablespace_io],
                         [("UNDO", 1, None)])

    def test_it_spans_a_gap_between_samples_without_doubling(self) -> None:
        # The worker missed two runs: one interval covers the three hours, once.
        before = sample(0, sysstats={"physical reads": 100})
        after = sample(180, sysstats={"physical reads": 400})
        snapshot = sample_interval(before, after, dbid=7)
        assert snapshot is not None
        self.assertEqual((snapshot.interval_seconds, snapshot.sysstats[0].value), (10_800, 300))

    def test_it_refuses_samples_of_different_instances(self) -> None:
        with self.assertRaisesRegex(ValueError, "instance 1.*instance 2"):
            sample_interval(sample(0), sample(10, instance=2), dbid=7)

    def test_it_refuses_naive_datetimes(self) -> None:
        naive = CounterSample(instance_number=1, startup_at=STARTUP, sampled_at=dt.datetime(2024, 5, 2, 2))
        with self.assertRaisesRegex(ValueError, "current.sampled_at"):
            sample_interval(sample(0), naive, dbid=7)

    def test_it_numbers_the_interval_with_the_dbid_it_is_given(self) -> None:
        snapshot = sample_interval(sample(0), sample(10), dbid=99)
        assert snapshot is not None
        self.assertEqual(snapshot.dbid, 99)


def point(snap_id: int, value: float, *, key: tuple = (7, 1, "physical reads"), startup: dt.datetime = STARTUP,
          begin_hour: int | None = None, hours: int = 1, values: tuple[float, ...] | None = None) -> CumulativePoint:
    begin = T0 + dt.timedelta(hours=(snap_id - 100) if begin_hour is None else begin_hour)
    return CumulativePoint(key=key, snap_id=snap_id, startup_at=startup, begin_at=begin,
                           end_at=begin + dt.timedelta(hours=hours), values=values or (value,))


class CumulativeDeltasTests(unittest.TestCase):
    def test_it_differences_consecutive_snapshots(self) -> None:
        deltas = cumulative_deltas([point(102, 350), point(100, 100), point(101, 200)])
        self.assertEqual([(d.snap_id, d.values) for d in deltas], [(101, (100,)), (102, (150,))])

    def test_it_never_differences_across_a_restart(self) -> None:
        deltas = cumulative_deltas([point(100, 1000), point(101, 20, startup=RESTART), point(102, 50, startup=RESTART)])
        self.assertEqual([(d.snap_id, d.values) for d in deltas], [(102, (30,))])

    def test_it_skips_the_snapshot_after_an_awr_gap(self) -> None:
        # 101 is missing: 102's interval starts an hour after 100 ended.
        deltas = cumulative_deltas([point(100, 100), point(102, 400), point(103, 450)])
        self.assertEqual([(d.snap_id, d.values) for d in deltas], [(103, (50,))])

    def test_it_keeps_a_contiguous_interval_even_when_snap_ids_skip(self) -> None:
        # A failed snapshot leaves no row and the next one's interval starts where 100 ended.
        deltas = cumulative_deltas([point(100, 100), point(102, 160, begin_hour=1)])
        self.assertEqual([(d.snap_id, d.values) for d in deltas], [(102, (60,))])

    def test_it_gives_no_delta_when_a_value_goes_down(self) -> None:
        deltas = cumulative_deltas([point(100, 0, values=(10, 10, 5.0)), point(101, 0, values=(12, 9, 6.0)),
                                    point(102, 0, values=(13, 11, 7.5))])
        self.assertEqual([(d.snap_id, d.values) for d in deltas], [(102, (1, 2, 1.5))])

    def test_it_keeps_series_of_different_dbids_and_instances_apart(self) -> None:
        deltas = cumulative_deltas([
            point(100, 100, key=(7, 1, "x")), point(101, 150, key=(7, 1, "x")),
            point(101, 10, key=(8, 1, "x")),  # database recreated: new DBID, same instance/name
            point(101, 900, key=(7, 2, "x")),
        ])
        self.assertEqual([(d.key, d.snap_id, d.values) for d in deltas], [((7, 1, "x"), 101, (50,))])

    def test_it_refuses_a_duplicate_snapshot(self) -> None:
        with self.assertRaisesRegex(ValueError, "SNAP_ID 100 twice"):
            cumulative_deltas([point(100, 1), point(100, 2)])

    def test_it_refuses_mismatched_value_counts(self) -> None:
        with self.assertRaisesRegex(ValueError, "has 1 values"):
            cumulative_deltas([point(100, 1), point(101, 0, values=(1, 2))])


class CounterDeltasTests(unittest.TestCase):
    def test_it_ignores_names_missing_on_either_side(self) -> None:
        self.assertEqual(counter_deltas({"a": 1, "b": 2}, {"a": 3, "c": 9}), {"a": 2})
