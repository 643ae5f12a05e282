"""apps.tiering.recommendations.lifecycle: which partitions follow their table's hot partition (pure, no database)."""

from __future__ import annotations

import doctest
import unittest

import numpy as np

from apps.tiering.recommendations import lifecycle
from apps.tiering.recommendations.lifecycle import partition_lifecycle


def _lifecycle(intensity, requests, *, positions=None, groups=None, measured=None, placeable=None):
    n = len(intensity)
    return partition_lifecycle(
        groups=np.array(groups or [7] * n), positions=np.array(positions or list(range(1, n + 1))),
        intensity=np.array(intensity, dtype=float), requests=np.array(requests, dtype=float),
        measured=np.array(measured if measured is not None else [True] * n),
        placeable=np.array(placeable if placeable is not None else [True] * n))


class PartitionLifecycleTests(unittest.TestCase):
    def test_it_places_the_empty_partitions_newer_than_the_hot_one_with_it(self) -> None:
        # Monthly partitions oldest first: cooling with age, this month's hot, two empty ones ahead.
        found = _lifecycle([0.1, 0.4, 2.0, 60.0, 0.0, 0.0], [5, 20, 90, 4000, 0, 0])

        self.assertEqual(found.ahead.tolist(), [False, False, False, False, True, True])
        self.assertEqual(found.hot.tolist(), [3] * 6)
        self.assertEqual(found.age.tolist(), [3, 2, 1, 0, -1, -2])

    def test_it_reads_age_from_the_position_not_from_the_order_given(self) -> None:
        found = _lifecycle([0.0, 60.0, 0.4, 2.0], [0, 4000, 20, 90], positions=[4, 3, 1, 2])

        self.assertEqual(found.ahead.tolist(), [True, False, False, False])
        self.assertEqual(found.hot.tolist(), [1] * 4)

    def test_a_table_whose_io_is_not_on_its_newest_partitions_follows_no_lifecycle(self) -> None:
        # List or hash partitioning: a partition newer than the hottest one has IO.
        found = _lifecycle([5.0, 60.0, 3.0, 0.0], [300, 4000, 200, 0])

        self.assertFalse(found.ahead.any())
        self.assertEqual(found.hot.tolist(), [-1] * 4)

    def test_an_unmeasured_or_unplaceable_partition_is_never_placed(self) -> None:
        # Unknown is not empty: a partition AWR did not capture keeps its hold (issue 15).
        found = _lifecycle([0.4, 60.0, np.nan, 0.0, 0.0], [20, 4000, 0, 0, 0],
                           measured=[True, True, False, True, True], placeable=[True, True, True, True, False])

        self.assertEqual(found.ahead.tolist(), [False, False, False, True, False])

    def test_it_needs_positions_and_a_few_partitions(self) -> None:
        self.assertFalse(_lifecycle([60.0, 0.0], [4000, 0]).ahead.any())
        self.assertFalse(_lifecycle([0.4, 60.0, 0.0], [20, 4000, 0], positions=[0, 0, 0]).ahead.any())
        # Not partitions (group 0): nothing.
        self.assertFalse(_lifecycle([0.4, 60.0, 0.0, 0.0], [20, 4000, 0, 0], groups=[0] * 4).ahead.any())

    def test_a_composites_subpartitions_of_one_partition_are_one_time_slice(self) -> None:
        # RANGE-HASH: three months x two hash subpartitions, the middle month hot, the last one empty.
        found = _lifecycle([0.3, 0.5, 50.0, 60.0, 0.0, 0.0], [10, 12, 3000, 4000, 0, 0],
                           positions=[1, 1, 2, 2, 3, 3])

        # The hot subpartition's sibling is not "newer" (same partition); both of next month's are ahead.
        self.assertEqual(found.ahead.tolist(), [False, False, False, False, True, True])
        self.assertEqual(found.hot.tolist(), [3] * 6)
        self.assertEqual(found.age.tolist(), [1, 1, 0, 0, -1, -1])

    def test_subpartitions_count_once_per_partition_towards_the_minimum(self) -> None:
        # Two partitions x three subpartitions: six segments, but only two time slices.
        found = _lifecycle([0.3, 0.3, 0.3, 60.0, 0.0, 0.0], [10, 10, 10, 4000, 0, 0], positions=[1, 1, 1, 2, 2, 2])

        self.assertFalse(found.ahead.any())

    def test_groups_are_read_apart(self) -> None:
        found = _lifecycle([0.4, 60.0, 0.0, 1.0, 30.0, 0.0, 0.0],
                           [20, 4000, 0, 50, 900, 0, 0], groups=[1, 1, 1, 2, 2, 2, 2],
                           positions=[1, 2, 3, 1, 2, 3, 4])

        self.assertEqual(found.ahead.tolist(), [False, False, True, False, False, True, True])
        self.assertEqual(found.hot.tolist(), [1, 1, 1, 4, 4, 4, 4])

    def test_its_examples_hold(self) -> None:
        self.assertEqual(doctest.testmod(lifecycle).failed, 0)
