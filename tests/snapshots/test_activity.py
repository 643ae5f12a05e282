"""The rollups' algebra: per-snapshot rows summed per key, merged, stored as bytes; no Django."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from apps.snapshots import activity
from apps.snapshots.activity import COUNTERS, Activity

ROOT = Path(__file__).resolve().parents[2]


def _snapshots(rows: list[tuple], keep: int = 40) -> Activity:
    """Rows of (segment, from samples, read requests, write requests, interval seconds[, snap_id]);
    without a snap_id each row is a snapshot of its own."""
    counters = np.zeros((len(rows), len(COUNTERS)), dtype=np.int64)
    counters[:, activity.READS] = [r[2] for r in rows]
    counters[:, activity.WRITES] = [r[3] for r in rows]
    counters[:, COUNTERS.index("table_scans")] = 1
    return activity.from_snapshots(
        segment_id=np.array([r[0] for r in rows], dtype=np.int64), from_samples=np.array([r[1] for r in rows], bool),
        snapshot=np.array([r[5] if len(r) > 5 else i for i, r in enumerate(rows)], dtype=np.int64),
        counters=counters, interval_s=np.array([r[4] for r in rows], dtype=np.float64), keep=keep)


def _brute_force(values_by_key: dict, keep: int) -> dict:
    return {key: sorted(values, reverse=True)[:keep] for key, values in values_by_key.items()}


def _tops(rollup: Activity) -> dict:
    return {(int(s), bool(f)): [float(v) for v in row if v >= 0]
            for s, f, row in zip(rollup.segment_id, rollup.from_samples, rollup.tops)}


class FromSnapshotsTests:
    def test_each_segment_and_source_sums_its_snapshots_and_keeps_its_largest_iops_first(self) -> None:
        rollup = _snapshots([(7, False, 360, 0, 3600), (3, False, 10, 0, 10), (7, False, 3600, 3600, 3600),
                             (7, True, 60, 0, 60), (7, False, 0, 0, 1800)])

        assert rollup.segment_id.tolist() == [3, 7, 7]
        assert rollup.from_samples.tolist() == [False, False, True]
        assert rollup.intervals.tolist() == [1, 3, 1]
        assert rollup.counter("read_requests").tolist() == [10, 3960, 60]
        assert rollup.counter("table_scans").tolist() == [1, 3, 1]
        assert rollup.covered_s.tolist() == [10, 9000, 60]
        assert np.allclose(rollup.iops_sum, [1.0, 2.1, 1.0])
        assert _tops(rollup) == {(3, False): [1.0], (7, False): [2.0, 0.1, 0.0], (7, True): [1.0]}

    def test_the_instances_of_one_snapshot_make_one_value_over_their_longest_interval(self) -> None:
        # RAC: instances 1 and 2 of snap 10, then snap 11 of instance 1 alone.
        rollup = _snapshots([(4, False, 300, 0, 60, 10), (4, False, 100, 20, 59, 10), (4, False, 60, 0, 60, 11)])

        assert rollup.intervals.tolist() == [2]
        assert rollup.covered_s.tolist() == [120]
        assert rollup.counter("read_requests").tolist() == [460]
        assert rollup.counter("table_scans").tolist() == [3]
        assert _tops(rollup) == {(4, False): [7.0, 1.0]}

    def test_only_the_largest_keep_values_are_kept(self) -> None:
        rollup = _snapshots([(1, False, n, 0, 1) for n in (5, 9, 1, 7)], keep=2)

        assert rollup.width == 2 and _tops(rollup) == {(1, False): [9.0, 7.0]}
        assert rollup.intervals.tolist() == [4] and rollup.iops_sum.tolist() == [22.0]

    def test_no_rows_is_an_empty_rollup(self) -> None:
        assert len(_snapshots([])) == 0


class MergeTests:
    def test_merging_in_any_order_keeps_the_same_sums_and_top_values_as_all_rows_at_once(self) -> None:
        rng = np.random.default_rng(3)
        rows = [(int(rng.integers(0, 30)), bool(rng.random() < 0.3), int(rng.integers(0, 10_000)),
                 int(rng.integers(0, 1000)), float(rng.choice([60, 3600]))) for _ in range(2000)]
        whole = _snapshots(rows, keep=9)
        parts = [_snapshots(rows[i:i + 300], keep=9) for i in range(0, 2000, 300)]

        for merged in (activity.merge_all(parts, keep=9), activity.merge_all(parts[::-1], keep=9)):
            assert merged.segment_id.tolist() == whole.segment_id.tolist()
            assert merged.from_samples.tolist() == whole.from_samples.tolist()
            assert merged.counters.tolist() == whole.counters.tolist()
            assert merged.intervals.tolist() == whole.intervals.tolist()
            assert np.allclose(merged.iops_sum, whole.iops_sum)
            assert _tops(merged) == _tops(whole)
        values: dict = {}
        for segment, samples, reads, writes, seconds in rows:
            values.setdefault((segment, samples), []).append((reads + writes) / seconds)
        assert _tops(whole) == _brute_force(values, 9)

    def test_two_parts_of_the_same_segments_add_up_row_by_row(self) -> None:
        hour = _snapshots([(1, False, 10, 0, 1), (2, True, 20, 0, 1)])

        twice = activity.merge(hour, hour, keep=3)

        assert twice.segment_id.tolist() == [1, 2] and twice.from_samples.tolist() == [False, True]
        assert twice.intervals.tolist() == [2, 2] and twice.counter("read_requests").tolist() == [20, 40]
        assert _tops(twice) == {(1, False): [10.0, 10.0], (2, True): [20.0, 20.0]}

    def test_a_window_merge_keys_by_segment_and_is_from_samples_only_when_every_part_is(self) -> None:
        day1 = activity.prefer_snapshots(_snapshots([(1, True, 10, 0, 1), (2, False, 20, 0, 1)]))
        day2 = activity.prefer_snapshots(_snapshots([(1, True, 30, 0, 1), (2, True, 40, 0, 1), (3, True, 5, 0, 1)]))

        window = activity.merge(day1, day2, keep=5, by_source=False)

        assert window.segment_id.tolist() == [1, 2, 3]
        assert window.from_samples.tolist() == [True, False, True]
        assert _tops(window) == {(1, True): [30.0, 10.0], (2, False): [40.0, 20.0], (3, True): [5.0]}


def test_a_day_uses_a_segments_snapshots_and_ignores_its_samples_of_the_same_time() -> None:
    day = _snapshots([(1, False, 10, 0, 1), (1, True, 99, 0, 1), (2, True, 5, 0, 1)])

    chosen = activity.prefer_snapshots(day)

    assert chosen.segment_id.tolist() == [1, 2] and chosen.from_samples.tolist() == [False, True]
    assert chosen.counter("read_requests").tolist() == [10, 5]


def test_a_rollup_reads_back_from_its_bytes_unchanged() -> None:
    rollup = _snapshots([(5, False, 100, 3, 60), (5, False, 7, 0, 60), (9, True, 1, 1, 30)])

    back = Activity.from_bytes(rollup.to_bytes(), rows=len(rollup), width=rollup.width)

    for name in ("segment_id", "from_samples", "counters", "covered_s", "intervals", "iops_sum", "tops"):
        assert getattr(back, name).tolist() == getattr(rollup, name).tolist(), name


def test_bytes_of_the_wrong_length_are_refused_with_the_sizes() -> None:
    rollup = _snapshots([(5, False, 100, 3, 60)])

    with pytest.raises(ValueError, match=r"a rollup of 2 rows and 1 top values has \d+ bytes, not \d+"):
        Activity.from_bytes(rollup.to_bytes(), rows=2, width=1)


def test_the_kth_largest_is_zero_where_there_is_no_kth_value() -> None:
    tops = np.array([[9.0, 4.0, -1.0], [3.0, -1.0, -1.0]])

    assert activity.kth_largest(tops, np.array([2, 2])).tolist() == [4.0, 0.0]
    assert activity.kth_largest(tops, np.array([0, 1])).tolist() == [0.0, 3.0]
    assert activity.kth_largest(np.zeros((2, 0)), np.array([1, 1])).tolist() == [0.0, 0.0]


def test_the_module_runs_without_django() -> None:
    probe = ("import sys; import apps.snapshots.activity; "
             "print([m for m in sys.modules if m == 'django' or m.startswith('django.')])")
    result = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"
