"""The fleet budget's bench (bench/budget.py) runs through the product's own code: at a small scale here, so a
change to what it calls breaks this test rather than the hour-long `make bench`."""

from __future__ import annotations

import pytest

from bench.budget import bench_read, bench_split


def test_the_split_bench_splits_a_small_fleet() -> None:
    figures = bench_split(targets=3, segments=2_000)
    assert figures["candidates"] == 6_000 and figures["evicted"] > 0


@pytest.mark.django_db
def test_the_read_bench_writes_and_reads_a_small_fleet_of_current_recommendations(seed_tiers) -> None:
    figures = bench_read(targets=2, segments=300)
    assert figures["recommendations"] == 600
    assert 0 < figures["candidates"] <= 600
