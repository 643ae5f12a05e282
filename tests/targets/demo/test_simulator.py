"""The demo schema and workload model: shapes, invariants, and the stories they must tell."""

from __future__ import annotations

import datetime as dt
import itertools
import unittest

from apps.targets.demo import schema, simulator
from apps.targets.demo.orders import partition_name
from apps.targets.demo.schema import (
    DEFAULT_TABLESPACE_TIERS,
    TIER_FAST_DISK,
    TIER_FLASH,
    TIER_HICAP_DISK,
    last_full_snap_id,
    segments_at,
    snap_end_at,
)
from apps.targets.demo.simulator import (
    FLASH_CACHE_BYTES,
    cache_plan,
    counter_sample,
    residency_at,
    simulate_hour,
    startup_at_for,
)
from apps.targets.rows import SEGMENT_STAT_FIELDS, SegmentStat, Snapshot
from bench.fleet_data import (
    FLEET_SEGMENT_COLUMNS,
    FLEET_STAT_COLUMNS,
    fleet_segment_stats,
    fleet_segments,
    fleet_stats,
    to_segment_stat,
)

UTC = dt.timezone.utc
SEED = 42
DBID = 1_234_567_890
# Friday 2026-11-20 11:00 UTC ends a busy office hour; the same Friday 03:00 a quiet night.
BUSY_SNAP = last_full_snap_id(dt.datetime(2026, 11, 20, 11, 0, tzinfo=UTC))
NIGHT_SNAP = last_full_snap_id(dt.datetime(2026, 11, 20, 3, 0, tzinfo=UTC))
DAY_SNAPS = range(BUSY_SNAP - 34, BUSY_SNAP - 10)  # Thursday 2026-11-19, 00:00 to 24:00 UTC


def _stat(snapshot: Snapshot, object_name: str, subobject_name: str = "") -> SegmentStat:
    for stat in snapshot.segment_stats:
        if stat.key.object_name == object_name and stat.key.subobject_name == subobject_name:
            return stat
    raise AssertionError(f"{object_name} {subobject_name} not in snapshot {snapshot.snap_id}")


def _counts(stat: SegmentStat) -> dict[str, int]:
    """Every counter of a demo SegmentStat; the demo knows them all, so none may be None."""
    counts = {name: getattr(stat, name) for name in (*SEGMENT_STAT_FIELDS, "space_allocated_bytes")}
    missing = [name for name, value in counts.items() if value is None]
    assert not missing, f"{stat.key}: demo left {missing} empty"
    return counts


def _day_totals(object_name: str, subobject_name: str = "") -> dict[str, int]:
    totals = dict.fromkeys(SEGMENT_STAT_FIELDS, 0)
    for snap_id in DAY_SNAPS:
        counts = _counts(_stat(simulate_hour(SEED, snap_id, DBID), object_name, subobject_name))
        for name in SEGMENT_STAT_FIELDS:
            totals[name] += counts[name]
    return totals


def _iops_per_gb(object_name: str, subobject_name: str = "") -> float:
    totals = _day_totals(object_name, subobject_name)
    size_bytes = _counts(_stat(simulate_hour(SEED, DAY_SNAPS[-1], DBID), object_name, subobject_name))[
        "space_allocated_bytes"]
    iops = (totals["physical_read_requests"] + totals["physical_write_requests"]) / (len(DAY_SNAPS) * 3600)
    return iops / (size_bytes / 2**30)


class SchemaTests(unittest.TestCase):
    def test_it_has_between_60_and_200_segments_with_unique_keys_and_object_ids(self) -> None:
        specs = segments_at(BUSY_SNAP)
        self.assertTrue(60 <= len(specs) <= 200, len(specs))
        self.assertEqual(len({spec.key for spec in specs}), len(specs))
        dataobjs = [spec.dataobj_number for spec in specs if spec.dataobj_number is not None]
        self.assertEqual(len(set(dataobjs)), len(dataobjs))

    def test_it_sizes_the_database_at_a_few_hundred_gb(self) -> None:
        total_gb = sum(spec.size_bytes for spec in segments_at(BUSY_SNAP)) / 2**30
        self.assertTrue(200 <= total_gb <= 800, total_gb)

    def test_it_keeps_mixed_case_and_spaced_identifiers_exactly(self) -> None:
        names = {spec.key.object_name for spec in segments_at(BUSY_SNAP)}
        self.assertIn("OrderNotes", names)
        self.assertIn("Cust Email Idx", names)

    def test_it_names_monthly_partitions_around_the_snapshot_month(self) -> None:
        partitions = [s for s in segments_at(BUSY_SNAP) if s.key.object_name == "ORDERS"]
        self.assertEqual(len(partitions), 26)
        self.assertTrue(all(s.key.object_type == "TABLE PARTITION" for s in partitions))
        self.assertTrue(all(s.partitioned_parent == "ORDERS" for s in partitions))
        names = {s.key.subobject_name for s in partitions}
        self.assertIn("ORDERS_P2026_11", names)
        self.assertIn("ORDERS_P2024_12", names)
        self.assertIn("ORDERS_P2027_01", names)
        self.assertEqual(partition_name(2026 * 12 + 10), "ORDERS_P2026_11")
        index_partitions = {s.key.subobject_name for s in segments_at(BUSY_SNAP) if s.key.object_name == "ORDERS_PK"}
        self.assertEqual(index_partitions, names)

    def test_order_lines_is_range_hash_composite_its_segments_the_subpartitions(self) -> None:
        specs = [s for s in segments_at(BUSY_SNAP) if s.key.object_name in ("ORDER_LINES", "ORDER_LINES_PK")]
        self.assertEqual(len(specs), 2 * 5 * 4)  # table and local index x 5 months x 4 hash subpartitions
        self.assertEqual({s.key.object_type for s in specs}, {"TABLE SUBPARTITION", "INDEX SUBPARTITION"})
        hot = {s.key.subobject_name: s for s in specs if s.key.object_name == "ORDER_LINES"
               and s.parent_partition == "P2026_11"}
        self.assertEqual(sorted(hot), ["P2026_11_H1", "P2026_11_H2", "P2026_11_H3", "P2026_11_H4"])
        one = hot["P2026_11_H1"]
        self.assertEqual((one.partitioning, one.partition_order), ("RANGE(ORDER_DATE)-HASH(ORDER_ID)", 4))
        self.assertIn("2026-12-01 00:00:00", one.partition_bound)
        # The hot month's subpartitions are misplaced on hi-cap disk, as ORDERS' hot partition is.
        self.assertEqual({s.tablespace_name for s in hot.values()}, {"HIST_DATA"})
        self.assertTrue(all(s.heat == 0 for s in specs if s.parent_partition == "P2026_12"))

    def test_it_gives_an_hour_the_same_segments_however_it_is_reached(self) -> None:
        before = segments_at(BUSY_SNAP)
        schema.clear_caches()
        self.assertEqual(segments_at(BUSY_SNAP), before)

    def test_it_grows_the_current_partition_through_the_month(self) -> None:
        def size_at(moment: dt.datetime) -> int:
            specs = segments_at(last_full_snap_id(moment))
            return next(s.size_bytes for s in specs if s.key.subobject_name == "ORDERS_P2026_11"
                        and s.key.object_name == "ORDERS")

        early = size_at(dt.datetime(2026, 11, 2, tzinfo=UTC))
        late = size_at(dt.datetime(2026, 11, 28, tzinfo=UTC))
        self.assertLess(early * 5, late)

    def test_it_rolls_the_hot_partition_at_month_end(self) -> None:
        december = last_full_snap_id(dt.datetime(2026, 12, 1, 2, tzinfo=UTC))
        hot = max(segments_at(december), key=lambda s: s.heat if s.key.object_name == "ORDERS" else -1)
        self.assertEqual(hot.key.subobject_name, "ORDERS_P2026_12")
        names = {s.key.subobject_name for s in segments_at(december) if s.key.object_name == "ORDERS"}
        self.assertIn("ORDERS_P2027_02", names)
        self.assertNotIn("ORDERS_P2024_12", names)

    def test_it_maps_every_tablespace_to_a_seed_tier(self) -> None:
        used = {spec.tablespace_name for spec in segments_at(BUSY_SNAP)}
        self.assertLessEqual(used, set(DEFAULT_TABLESPACE_TIERS))
        self.assertEqual(set(DEFAULT_TABLESPACE_TIERS.values()), {TIER_FLASH, TIER_FAST_DISK, TIER_HICAP_DISK})
        self.assertEqual(DEFAULT_TABLESPACE_TIERS["FLASH_DATA"], "Flash")
        self.assertEqual(DEFAULT_TABLESPACE_TIERS["HIST_DATA"], "Hi-cap disk")
        self.assertEqual(DEFAULT_TABLESPACE_TIERS["SOE_DATA"], "Fast disk")

    def test_it_misplaces_the_hot_partition_and_a_cold_archive(self) -> None:
        specs = {(s.key.object_name, s.key.subobject_name): s for s in segments_at(BUSY_SNAP)}
        self.assertEqual(specs[("ORDERS", "ORDERS_P2026_11")].tablespace_name, "HIST_DATA")
        self.assertEqual(specs[("CUSTOMER_ARCHIVE", "")].tablespace_name, "FLASH_DATA")
        self.assertEqual(specs[("INVENTORIES", "")].flash_cache, "KEEP")

    def test_it_describes_lob_and_undo_segments_as_dba_segments_does(self) -> None:
        specs = segments_at(BUSY_SNAP)
        lob = next(s for s in specs if s.key.object_type == "LOBSEGMENT")
        self.assertTrue(lob.key.object_name.startswith("SYS_LOB"))
        # As DBA_LOBS names them: the owning table and the column, never joined with a dot.
        self.assertEqual((lob.partitioned_parent, lob.lob_column), ("ORDER_DOCS", "DOC_BODY"))
        self.assertTrue(any(s.key.object_type == "LOBINDEX" for s in specs))
        undo = [s for s in specs if s.key.object_type == "TYPE2 UNDO"]
        self.assertEqual(len(undo), 10)
        self.assertTrue(all(s.key.owner == "SYS" and s.key.object_name.startswith("_SYSSMU") for s in undo))
        self.assertTrue(all(s.tablespace_name == "UNDOTBS1" and s.dataobj_number is None for s in undo))

    def test_it_rejects_naive_datetimes_with_a_clear_error(self) -> None:
        with self.assertRaisesRegex(ValueError, "now must be a timezone-aware"):
            last_full_snap_id(dt.datetime(2026, 11, 20, 11, 0))


class SimulatorTests(unittest.TestCase):
    def test_it_is_a_pure_function_of_seed_and_hour(self) -> None:
        first = simulate_hour(SEED, BUSY_SNAP, DBID)
        simulator.clear_caches()
        self.assertEqual(simulate_hour(SEED, BUSY_SNAP, DBID), first)
        self.assertNotEqual(simulate_hour(SEED + 1, BUSY_SNAP, DBID).segment_stats, first.segment_stats)

    def test_it_aligns_snapshots_to_the_hour(self) -> None:
        snapshot = simulate_hour(SEED, BUSY_SNAP, DBID)
        self.assertEqual(snapshot.end_at, dt.datetime(2026, 11, 20, 11, 0, tzinfo=UTC))
        self.assertEqual(snapshot.interval_seconds, 3600)
        self.assertEqual(snap_end_at(BUSY_SNAP), snapshot.end_at)
        self.assertFalse(snapshot.top_n_only)

    def test_it_keeps_counters_non_negative_and_requests_within_blocks(self) -> None:
        for snap_id in itertools.chain(DAY_SNAPS, [NIGHT_SNAP]):
            for stat in simulate_hour(SEED, snap_id, DBID).segment_stats:
                c = _counts(stat)
                for name in SEGMENT_STAT_FIELDS:
                    self.assertGreaterEqual(c[name], 0, (stat.key, name))
                self.assertLessEqual(c["physical_read_requests"], c["physical_reads_blocks"], stat.key)
                self.assertLessEqual(c["physical_write_requests"], c["physical_writes_blocks"], stat.key)
                self.assertLessEqual(c["physical_reads_direct_blocks"], c["physical_reads_blocks"], stat.key)
                self.assertLessEqual(c["optimized_physical_reads"], c["physical_read_requests"], stat.key)
                self.assertLessEqual(c["physical_reads_blocks"], c["logical_reads"], stat.key)

    def test_it_makes_the_current_partition_far_hotter_than_old_ones(self) -> None:
        hot = _iops_per_gb("ORDERS", "ORDERS_P2026_11")
        six_months = _iops_per_gb("ORDERS", "ORDERS_P2026_05")
        two_years = _iops_per_gb("ORDERS", "ORDERS_P2025_01")
        self.assertGreater(hot, 100 * six_months)
        self.assertGreater(six_months, two_years)

    def test_it_makes_inventories_write_heavy(self) -> None:
        totals = _day_totals("INVENTORIES")
        self.assertGreater(totals["physical_write_requests"], 4 * totals["physical_read_requests"])
        self.assertGreater(totals["db_block_changes"], 10 * totals["physical_writes_blocks"])

    def test_it_reads_order_history_by_large_direct_path_scans(self) -> None:
        totals = _day_totals("ORDER_HISTORY")
        self.assertGreater(totals["table_scans"], 0)
        self.assertGreater(totals["physical_reads_blocks"], 40 * totals["physical_read_requests"])
        self.assertGreater(totals["physical_reads_direct_blocks"], 0.9 * totals["physical_reads_blocks"])
        self.assertEqual(totals["optimized_physical_reads"], 0)

    def test_it_reads_order_history_at_night_and_orders_by_day(self) -> None:
        busy, night = simulate_hour(SEED, BUSY_SNAP, DBID), simulate_hour(SEED, NIGHT_SNAP, DBID)
        self.assertGreater(_counts(_stat(busy, "ORDER_ITEMS"))["physical_read_requests"],
                           3 * _counts(_stat(night, "ORDER_ITEMS"))["physical_read_requests"])
        self.assertGreater(_counts(_stat(night, "ORDER_HISTORY"))["physical_reads_blocks"],
                           _counts(_stat(busy, "ORDER_HISTORY"))["physical_reads_blocks"])

    def test_it_is_quieter_at_the_weekend(self) -> None:
        def daily_reads(first_snap: int) -> int:
            return sum(_counts(stat)["physical_read_requests"] for snap_id in range(first_snap, first_snap + 24)
                       for stat in simulate_hour(SEED, snap_id, DBID).segment_stats
                       if stat.key.object_name == "ORDER_ITEMS")

        wednesday = last_full_snap_id(dt.datetime(2026, 11, 18, 1, tzinfo=UTC))
        sunday = last_full_snap_id(dt.datetime(2026, 11, 22, 1, tzinfo=UTC))
        self.assertGreater(daily_reads(wednesday), 2 * daily_reads(sunday))

    def test_it_reads_far_more_logically_than_physically_on_oltp_segments(self) -> None:
        counts = _counts(_stat(simulate_hour(SEED, BUSY_SNAP, DBID), "CUSTOMERS_PK"))
        self.assertGreater(counts["logical_reads"], 10 * counts["physical_reads_blocks"])

    def test_it_reports_system_statistics_that_add_up(self) -> None:
        snapshot = simulate_hour(SEED, BUSY_SNAP, DBID)
        stats = {s.name: s.value for s in snapshot.sysstats}
        for name in ("physical read IO requests", "physical write IO requests", "physical read flash cache hits",
                     "flash cache inserts", "flash cache eviction: aged out",
                     "flash cache insert skip: DBWR overloaded", "physical read total IO requests"):
            self.assertIn(name, stats)
        segment_reads = sum(_counts(s)["physical_read_requests"] for s in snapshot.segment_stats)
        self.assertGreaterEqual(stats["physical read IO requests"], segment_reads)
        self.assertGreater(stats["physical read total IO requests"], stats["physical read IO requests"])
        self.assertEqual(stats["physical read flash cache hits"],
                         sum(_counts(s)["optimized_physical_reads"] for s in snapshot.segment_stats))
        self.assertGreater(stats["flash cache inserts"], 0)
        self.assertGreater(stats["flash cache insert skip: DBWR overloaded"], 0)  # busy hour

    def test_it_times_tablespace_reads_at_their_tier_latency_and_flash_hits_at_the_caches(self) -> None:
        read_ms: dict[str, list[float]] = {}
        reads: dict[str, int] = {}
        hits: dict[str, int] = {}
        for snap_id in DAY_SNAPS:
            snapshot = simulate_hour(SEED, snap_id, DBID)
            for io in snapshot.tablespace_io:
                read_ms.setdefault(io.tablespace_name, []).append(io.read_time_ms or 0.0)
                reads[io.tablespace_name] = reads.get(io.tablespace_name, 0) + io.read_requests
            for stat in snapshot.segment_stats:
                hits[stat.tablespace_name] = hits.get(stat.tablespace_name, 0) + (stat.optimized_physical_reads or 0)
        average = {name: sum(times) / reads[name] for name, times in read_ms.items() if reads[name]}
        # Each tablespace's reads at its tier's latency, those the flash cache served at 0.3 ms; busy hours
        # slow both down a little (the factor averages about 1 over a day).
        tier_ms = {"FLASH_DATA": 0.3, "SOE_DATA": 5.0, "HIST_DATA": 12.0}
        for name, device_ms in tier_ms.items():
            share = hits.get(name, 0) / reads[name]
            expected = device_ms * (1 - share) + 0.3 * share
            self.assertTrue(0.75 * expected < average[name] < 1.35 * expected, (name, average[name], expected))
        self.assertGreater(hits["SOE_DATA"] / reads["SOE_DATA"], 0.3)  # the cache serves much of fast disk's reads
        self.assertLess(average["SOE_DATA"], 0.8 * 5.0)
        tablespace_reads = sum(io.read_requests for io in simulate_hour(SEED, BUSY_SNAP, DBID).tablespace_io)
        stats = {s.name: s.value for s in simulate_hour(SEED, BUSY_SNAP, DBID).sysstats}
        self.assertEqual(tablespace_reads, stats["physical read IO requests"])

    def test_it_restarts_the_instance_weekly_on_sunday_at_three(self) -> None:
        startup = startup_at_for(BUSY_SNAP)
        self.assertEqual(startup, dt.datetime(2026, 11, 15, 3, 0, tzinfo=UTC))
        after_restart = last_full_snap_id(dt.datetime(2026, 11, 22, 4, 0, tzinfo=UTC))
        self.assertEqual(startup_at_for(after_restart), dt.datetime(2026, 11, 22, 3, 0, tzinfo=UTC))
        self.assertEqual(startup_at_for(after_restart - 1), startup)


class CacheTests(unittest.TestCase):
    def test_it_never_overfills_the_flash_cache(self) -> None:
        flash_blocks = sum(p.flash_blocks for p in cache_plan(BUSY_SNAP).values())
        self.assertLessEqual(flash_blocks * schema.BLOCK_SIZE_BYTES, FLASH_CACHE_BYTES)
        self.assertGreater(flash_blocks * schema.BLOCK_SIZE_BYTES, 0.9 * FLASH_CACHE_BYTES)

    def test_it_fills_the_flash_cache_with_the_hot_read_mostly_set(self) -> None:
        specs = {s.key.object_name + "/" + s.key.subobject_name: s for s in segments_at(BUSY_SNAP)}
        flash_blocks = {r.dataobj_number: r.flash_blocks for r in residency_at(SEED, BUSY_SNAP)}

        def flash_share(name: str) -> float:
            spec = specs[name]
            return flash_blocks.get(spec.dataobj_number or -1, 0) / spec.blocks

        self.assertGreater(flash_share("ORDERS/ORDERS_P2026_11"), 0.3)
        self.assertGreater(flash_share("ORDER_ITEMS/"), 0.2)
        self.assertEqual(flash_share("ORDER_HISTORY/"), 0.0)  # direct path scans bypass the cache
        self.assertEqual(flash_share("CUSTOMER_ARCHIVE/"), 0.0)
        self.assertLess(flash_share("INVENTORIES/"), flash_share("ORDERS/ORDERS_P2026_11") / 2)
        self.assertGreater(flash_share("ORDERS/ORDERS_P2026_11"), flash_share("ORDERS/ORDERS_P2025_01"))

    def test_it_serves_more_reads_from_flash_where_the_flash_cache_holds_more(self) -> None:
        snapshot = simulate_hour(SEED, BUSY_SNAP, DBID)
        hot, writer = _counts(_stat(snapshot, "ORDER_ITEMS")), _counts(_stat(snapshot, "INVENTORIES"))
        self.assertGreater(hot["optimized_physical_reads"] / hot["physical_read_requests"],
                           2 * writer["optimized_physical_reads"] / writer["physical_read_requests"])

    def test_it_reports_residency_only_for_objects_with_buffers(self) -> None:
        known = {s.dataobj_number for s in segments_at(BUSY_SNAP)}
        rows = residency_at(SEED, BUSY_SNAP)
        self.assertTrue(rows)
        for row in rows:
            self.assertIn(row.dataobj_number, known)
            self.assertGreater(row.flash_blocks + row.cache_blocks, 0)
            self.assertEqual(row.instance_number, 1)


class CounterSampleTests(unittest.TestCase):
    def test_it_accumulates_exactly_the_snapshot_deltas_between_two_samples(self) -> None:
        earlier, later = counter_sample(SEED, BUSY_SNAP - 5, DBID), counter_sample(SEED, BUSY_SNAP, DBID)
        self.assertEqual(earlier.startup_at, later.startup_at)
        snapshots = [simulate_hour(SEED, snap_id, DBID) for snap_id in range(BUSY_SNAP - 4, BUSY_SNAP + 1)]
        key = _stat(snapshots[0], "ORDER_ITEMS").key
        for name in SEGMENT_STAT_FIELDS:
            delta = later.segment_totals[key][name] - earlier.segment_totals[key][name]
            self.assertEqual(delta, sum(getattr(_stat(s, "ORDER_ITEMS"), name) for s in snapshots), name)
        reads = "physical read IO requests"
        self.assertEqual(later.sysstat_totals[reads] - earlier.sysstat_totals[reads],
                         sum(next(x.value for x in s.sysstats if x.name == reads) for s in snapshots))
        tablespace_reads = later.tablespace_totals["SOE_DATA"][0] - earlier.tablespace_totals["SOE_DATA"][0]
        self.assertEqual(tablespace_reads, sum(next(io.read_requests for io in s.tablespace_io
                                                    if io.tablespace_name == "SOE_DATA") for s in snapshots))

    def test_it_starts_from_zero_after_a_restart(self) -> None:
        after_restart = last_full_snap_id(dt.datetime(2026, 11, 22, 4, 0, tzinfo=UTC))
        sample = counter_sample(SEED, after_restart, DBID)
        only_hour = simulate_hour(SEED, after_restart, DBID)
        stat = _stat(only_hour, "ORDER_ITEMS")
        self.assertEqual(sample.segment_totals[stat.key]["physical_read_requests"], stat.physical_read_requests)
        self.assertEqual(sample.startup_at, dt.datetime(2026, 11, 22, 3, 0, tzinfo=UTC))
        self.assertEqual(sample.sampled_at, only_hour.end_at)

    def test_it_places_every_segment_it_counts(self) -> None:
        sample = counter_sample(SEED, BUSY_SNAP, DBID)
        self.assertEqual(set(sample.segment_totals), set(sample.segment_places))
        self.assertEqual(len(sample.segment_totals), len(segments_at(BUSY_SNAP)))


class FleetDataTests(unittest.TestCase):
    def test_it_yields_the_documented_layout(self) -> None:
        rows = list(fleet_segment_stats(50, 3, 7))
        self.assertEqual(len(rows), 150)
        self.assertTrue(all(len(row) == len(FLEET_STAT_COLUMNS) for row in rows))
        snap_id, stat = to_segment_stat(rows[0])
        self.assertEqual(snap_id, rows[0][0])
        self.assertEqual(stat.physical_read_requests, rows[0][FLEET_STAT_COLUMNS.index("physical_read_requests")])
        self.assertEqual(len(next(fleet_segments(1, 7))), len(FLEET_SEGMENT_COLUMNS))

    def test_it_is_deterministic_and_seed_dependent(self) -> None:
        self.assertEqual(list(fleet_segment_stats(20, 2, 7)), list(fleet_segment_stats(20, 2, 7)))
        self.assertNotEqual(list(fleet_segment_stats(20, 2, 7)), list(fleet_segment_stats(20, 2, 8)))

    def test_it_keeps_counters_sane_and_skewed(self) -> None:
        rows = list(fleet_segment_stats(2000, 1, 3))
        reads_at = FLEET_STAT_COLUMNS.index("physical_read_requests")
        blocks_at = FLEET_STAT_COLUMNS.index("physical_reads_blocks")
        for row in rows:
            self.assertTrue(all(value >= 0 for value in row[reads_at:]))
            self.assertLessEqual(row[reads_at], row[blocks_at])
        io = sorted((row[reads_at] + row[reads_at + 1] for row in rows), reverse=True)
        self.assertGreater(sum(io[:200]), 0.5 * sum(io))  # the top 10 % carry most of the IO
        self.assertEqual(len({row[1:5] for row in rows}), len(rows))  # segment keys are unique

    def test_it_streams_instead_of_materialising(self) -> None:
        stream = fleet_stats(200, 1072, 168, 42)
        first = next(stream)
        self.assertEqual(first[:2], (0, 3_000_000_000))
        self.assertEqual(len(first), 2 + len(FLEET_STAT_COLUMNS))

    def test_it_rejects_negative_sizes(self) -> None:
        with self.assertRaisesRegex(ValueError, "n_hours must be >= 0"):
            list(fleet_segment_stats(1, -1, 1))
