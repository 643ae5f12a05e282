"""DemoSource: the built-in demo target as a Source (back-fill, increments, determinism, speed)."""

from __future__ import annotations

import datetime as dt
import subprocess
import sys
import unittest
from pathlib import Path

from apps.targets.base import CollectState, Source, SourceError
from apps.targets.demo import simulator
from apps.targets.demo.schema import SNAP_EPOCH_AT
from apps.targets.demo.source import DemoSource, dbid_for_seed
from apps.targets.rows import Collection, Snapshot

UTC = dt.timezone.utc
ROOT = Path(__file__).resolve().parents[3]
NOW = dt.datetime(2026, 11, 20, 11, 0, tzinfo=UTC)  # on the hour
EIGHT_DAYS = dt.timedelta(days=8)


def _first_collection(source: DemoSource, now: dt.datetime = NOW) -> Collection:
    return source.collect(CollectState(now=now, history_start_at=now - EIGHT_DAYS))


def _next_collection(source: DemoSource, previous: Collection, now: dt.datetime) -> Collection:
    last = previous.snapshots[-1]
    state = CollectState(now=now, history_start_at=now - EIGHT_DAYS,
                         last_snap_ids={(last.dbid, last.instance_number): last.snap_id})
    return source.collect(state)


class DemoSourceTests(unittest.TestCase):
    def test_it_is_a_demo_mode_source(self) -> None:
        source = DemoSource(seed=3, db_name="ORDERS")
        self.assertIsInstance(source, Source)
        self.assertEqual(source.mode, "demo")
        database = _first_collection(source).database
        self.assertEqual(database.db_name, "ORDERS")
        self.assertEqual(database.dbid, dbid_for_seed(3))
        self.assertEqual(database.release, "19.0.0.0.0")
        self.assertEqual(database.instances, (1,))
        self.assertFalse(database.is_rac)
        self.assertTrue(0 < database.dbid < 2**32)

    def test_it_backfills_eight_days_of_hourly_snapshots(self) -> None:
        collection = _first_collection(DemoSource())
        self.assertEqual(len(collection.snapshots), 192)
        self.assertEqual(collection.snapshots[-1].end_at, NOW)
        self.assertEqual(collection.snapshots[0].begin_at, NOW - EIGHT_DAYS)
        ids = [s.snap_id for s in collection.snapshots]
        self.assertEqual(ids, list(range(ids[0], ids[0] + 192)))

    def test_it_backfills_only_whole_hours_when_now_is_not_on_the_hour(self) -> None:
        collection = _first_collection(DemoSource(), NOW + dt.timedelta(minutes=40))
        self.assertEqual(len(collection.snapshots), 191)
        self.assertEqual(collection.snapshots[-1].end_at, NOW)
        self.assertGreaterEqual(collection.snapshots[0].begin_at, NOW + dt.timedelta(minutes=40) - EIGHT_DAYS)

    def test_it_numbers_hours_from_a_fixed_epoch(self) -> None:
        for snapshot in _first_collection(DemoSource()).snapshots:
            self.assertEqual(snapshot.end_at, SNAP_EPOCH_AT + dt.timedelta(hours=snapshot.snap_id))
            self.assertEqual(snapshot.interval_seconds, 3600)
            self.assertEqual((snapshot.begin_at.minute, snapshot.begin_at.second), (0, 0))
            self.assertEqual(snapshot.begin_at.utcoffset(), dt.timedelta(0))
            self.assertFalse(snapshot.top_n_only)
            self.assertEqual(snapshot.instance_number, 1)

    def test_it_returns_the_same_collection_for_the_same_seed_and_state(self) -> None:
        first = _first_collection(DemoSource(seed=11))
        simulator.clear_caches()
        self.assertEqual(_first_collection(DemoSource(seed=11)), first)

    def test_it_returns_different_figures_for_another_seed(self) -> None:
        one, other = _first_collection(DemoSource(seed=11)), _first_collection(DemoSource(seed=12))
        self.assertNotEqual(one.database.dbid, other.database.dbid)
        self.assertNotEqual(one.snapshots[-1].segment_stats, other.snapshots[-1].segment_stats)

    def test_it_returns_only_new_hours_on_later_collections(self) -> None:
        source = DemoSource()
        first = _first_collection(source)
        later = _next_collection(source, first, NOW + dt.timedelta(hours=3, minutes=5))
        self.assertEqual([s.snap_id for s in later.snapshots],
                         [first.snapshots[-1].snap_id + n for n in (1, 2, 3)])
        same_hour = _next_collection(source, first, NOW + dt.timedelta(minutes=59))
        self.assertEqual(same_hour.snapshots, ())
        self.assertTrue(same_hour.segments)  # sizes and residency still come back

    def test_it_gives_the_same_rows_hour_by_hour_as_in_one_backfill(self) -> None:
        source = DemoSource(seed=5)
        start_at = NOW - dt.timedelta(hours=30)
        collection = _first_collection(source, start_at)
        stepped: list[Snapshot] = list(collection.snapshots)
        for hours in range(1, 31):
            collection = _next_collection(source, collection, start_at + dt.timedelta(hours=hours))
            stepped.extend(collection.snapshots)
        simulator.clear_caches()
        backfill = _first_collection(DemoSource(seed=5))
        by_id = {s.snap_id: s for s in backfill.snapshots}
        for snapshot in stepped:
            if snapshot.snap_id in by_id:
                self.assertEqual(snapshot, by_id[snapshot.snap_id])
        self.assertEqual(stepped[-1], backfill.snapshots[-1])
        self.assertEqual(collection.segments, backfill.segments)
        self.assertEqual(collection.residency, backfill.residency)
        self.assertEqual(collection.samples, backfill.samples)

    def test_it_does_not_reach_back_beyond_the_history_window(self) -> None:
        state = CollectState(now=NOW, history_start_at=NOW - dt.timedelta(hours=5),
                             last_snap_ids={(dbid_for_seed(42), 1): 1000})
        collection = DemoSource().collect(state)
        self.assertEqual(len(collection.snapshots), 5)
        self.assertIn("older than the history window", collection.notes[0])

    def test_it_ignores_last_snap_ids_of_other_databases(self) -> None:
        state = CollectState(now=NOW, history_start_at=NOW - EIGHT_DAYS, last_snap_ids={(1, 1): 10**9})
        self.assertEqual(len(DemoSource().collect(state).snapshots), 192)

    def test_it_lists_every_segment_with_its_size_and_hints(self) -> None:
        collection = _first_collection(DemoSource())
        segments = {(s.key.object_name, s.key.subobject_name): s for s in collection.segments}
        self.assertTrue(60 <= len(segments) <= 200)
        hot = segments[("ORDERS", "ORDERS_P2026_11")]
        self.assertEqual(hot.partitioned_parent, "ORDERS")
        self.assertEqual(hot.blocks * 8192, hot.bytes)
        self.assertEqual(segments[("PRODUCTS", "")].flash_cache, "KEEP")
        self.assertIn(("Cust Email Idx", ""), segments)
        self.assertIn(("OrderNotes", ""), segments)
        latest = {s.key: s.space_allocated_bytes for s in collection.snapshots[-1].segment_stats}
        for info in collection.segments:
            self.assertEqual(latest[info.key], info.bytes)

    def test_it_returns_residency_for_listed_objects_only(self) -> None:
        collection = _first_collection(DemoSource())
        listed = {s.dataobj_number for s in collection.segments}
        self.assertTrue(collection.residency)
        self.assertTrue(all(r.dataobj_number in listed for r in collection.residency))

    def test_it_samples_cumulative_counters_consistent_with_the_deltas(self) -> None:
        source = DemoSource()
        first = _first_collection(source)
        later = _next_collection(source, first, NOW + dt.timedelta(hours=4))
        before, after = first.samples[0], later.samples[0]
        self.assertEqual(before.startup_at, after.startup_at)
        self.assertEqual(after.sampled_at, later.snapshots[-1].end_at)
        for stat in later.snapshots[0].segment_stats[:20]:
            delta = (after.segment_totals[stat.key]["physical_read_requests"]
                     - before.segment_totals[stat.key]["physical_read_requests"])
            self.assertEqual(delta, sum(next(x.physical_read_requests for x in s.segment_stats if x.key == stat.key)
                                        for s in later.snapshots))

    def test_it_notes_the_weekly_restart_inside_a_backfill(self) -> None:
        collection = _first_collection(DemoSource())
        startups = {s.startup_at for s in collection.snapshots}
        self.assertEqual(len(startups), 2)
        self.assertEqual(len(collection.notes), 1)
        self.assertIn("restarted", collection.notes[0])

    def test_it_rejects_naive_times_with_a_permanent_error(self) -> None:
        state = CollectState(now=dt.datetime(2026, 11, 20, 11, 0), history_start_at=NOW - EIGHT_DAYS)
        with self.assertRaisesRegex(SourceError, "CollectState.now must be a timezone-aware") as caught:
            DemoSource().collect(state)
        self.assertTrue(caught.exception.permanent)

    def test_it_rejects_a_history_start_after_now(self) -> None:
        with self.assertRaisesRegex(SourceError, "history_start_at"):
            DemoSource().collect(CollectState(now=NOW, history_start_at=NOW + dt.timedelta(hours=1)))

    def test_it_rejects_a_bad_seed(self) -> None:
        with self.assertRaisesRegex(ValueError, "seed must be an int"):
            DemoSource(seed="42")  # type: ignore[arg-type]

    def test_it_backfills_eight_days_from_cold_caches(self) -> None:
        simulator.clear_caches()
        collection = _first_collection(DemoSource(seed=99))  # its time: bench/bench_pure.py
        self.assertEqual(len(collection.snapshots), 192)


class PurityTests(unittest.TestCase):
    def test_it_imports_without_django(self) -> None:
        code = ("import apps.targets.demo.source, bench.fleet_data, sys; "
                "assert not any(m.startswith('django') for m in sys.modules), 'django imported'")
        result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=False)
        self.assertEqual(result.returncode, 0, result.stderr)
