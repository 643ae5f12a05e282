"""Rows kept on disk a part at a time (apps.targets.extract.spill): they read back as the sequence they were."""

from __future__ import annotations

import pytest

from apps.targets.extract.spill import spilled, spilled_groups


def test_a_spilled_sequence_reads_back_its_items_in_order_in_parts():
    rows = spilled(({"n": n} for n in range(25)), part_rows=10)

    assert len(rows) == 25 and [len(part) for part in rows.parts()] == [10, 10, 5]
    assert list(rows) == [{"n": n} for n in range(25)]
    assert rows[0] == {"n": 0} and rows[-1] == {"n": 24} and rows[12] == {"n": 12}
    assert rows == [{"n": n} for n in range(25)] and rows != [{"n": 0}]
    with pytest.raises(IndexError):
        rows[25]


def test_groups_are_joined_across_parts_and_keep_their_order():
    rows = spilled([("a", 1), ("a", 2), ("a", 3), ("b", 4), ("b", 5)], part_rows=2)

    def runs(part):
        for key in dict.fromkeys(k for k, _ in part):
            yield key, [v for k, v in part if k == key]

    groups = spilled_groups(rows, runs)

    assert {key: tuple(items) for key, items in groups.items()} == {"a": (1, 2, 3), "b": (4, 5)}
    assert len(groups["a"]) == 3 and groups["b"] == (4, 5)
    assert not spilled(())
