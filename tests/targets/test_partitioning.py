"""Partition bounds read into an order (apps.targets.partitioning): dates, timestamps, numbers, MAXVALUE last."""

from __future__ import annotations

import unittest

from apps.targets.partitioning import (
    BOUND_MAX_CHARS,
    Partitioning,
    bound_key,
    partition_orders,
    partitioning_of,
)


def _to_date(day: str) -> str:
    return f"TO_DATE(' {day} 00:00:00', 'SYYYY-MM-DD HH24:MI:SS', 'NLS_CALENDAR=GREGORIAN')"


class BoundOrderTests(unittest.TestCase):
    def test_it_orders_range_partitions_by_bound_not_by_name_or_position(self) -> None:
        bounds = {"P_LAST": "MAXVALUE", "P_B": _to_date("2026-12-01"), "P_A": "TIMESTAMP' 2027-01-01 00:00:00'",
                  "P_C": _to_date("2026-11-01")}

        self.assertEqual(partition_orders(bounds, Partitioning("RANGE")), {"P_C": 1, "P_B": 2, "P_A": 3, "P_LAST": 4})

    def test_multi_column_bounds_order_by_each_column_in_turn(self) -> None:
        bounds = {"Y26M12": "2026, 12", "Y27M01": "2027, 1", "Y26M02": "2026, 2", "Y27MX": "2027, MAXVALUE"}

        self.assertEqual(list(partition_orders(bounds, Partitioning("RANGE"))), ["Y26M02", "Y26M12", "Y27M01", "Y27MX"])

    def test_hash_partitions_are_never_ordered(self) -> None:
        self.assertEqual(partition_orders({"SYS_P1": "", "SYS_P2": ""}, Partitioning("HASH", None)), {})
        self.assertEqual(partition_orders({"P1": "100"}, None), {})

    def test_list_partitions_order_by_their_greatest_value_and_regions_not_at_all(self) -> None:
        orders = partition_orders({"D2": "20260102, 20260103", "D1": "20260101", "DEF": "DEFAULT"},
                                  Partitioning("LIST"))
        self.assertEqual(orders, {"D1": 1, "D2": 2})
        self.assertEqual(partition_orders({"EU": "'DE', 'FR'", "US": "'US'"}, Partitioning("LIST")), {})

    def test_a_bound_longer_than_the_limit_has_no_key(self) -> None:
        self.assertIsNone(bound_key("1" * (BOUND_MAX_CHARS + 1)))
        self.assertIsNotNone(bound_key("1" * BOUND_MAX_CHARS))

    def test_interval_partitioning_is_named_so_and_a_composite_keeps_its_second_method(self) -> None:
        found = partitioning_of("RANGE", "LIST", "NUMTOYMINTERVAL(1,'MONTH')", ["ORDER_DATE"], ["REGION"])

        self.assertEqual(found.label(), "INTERVAL(ORDER_DATE)-LIST(REGION)")
        self.assertTrue(found.ordered)
        self.assertFalse(partitioning_of("HASH", "NONE", None).ordered)
