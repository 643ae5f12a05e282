"""Benchmark the placement optimizer on synthetic, skewed segment sets.

Segments get log-normal sizes (median 2 GB, sigma 1.6: a few huge history
tables, many small indexes) and Pareto intensities (alpha 1.16, the "80/20"
shape: most IO on a few hot segments), against the seed's 2009 tiers and the
2025 on-premises preset. For each set it prints the per-object
("recommended") total, the optimized total, the proven lower bound, the gap
and the wall time; then the time of the per-object choice for 100k segments.

Run: .venv/bin/python bench/bench_optimizer.py [--sizes 1000 10000] [--time-limit 60]
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tabulate import tabulate  # noqa: E402

from apps.tiering.costmodel import StorageObject, choose_tiers, place_recommended, to_cents  # noqa: E402
from apps.tiering.optimizer import optimize_placement  # noqa: E402
from apps.tiering.presets import preset_tiers  # noqa: E402

MEDIAN_GB = 2.0
SIGMA = 1.6
PARETO_ALPHA = 1.16
MIN_INTENSITY = 0.02  # IOPS per GB of the coldest segments


def synthetic_segments(count: int, seed: int) -> list[StorageObject]:
    """``count`` segments with log-normal GB and Pareto IOPS/GB (deterministic per seed)."""
    rng = random.Random(seed)
    segments = []
    for index in range(count):
        gb = round(rng.lognormvariate(math.log(MEDIAN_GB), SIGMA), 3) or 0.001
        intensity = MIN_INTENSITY * rng.paretovariate(PARETO_ALPHA)
        segments.append(StorageObject(f"SEG{index:06d}", iops=round(gb * intensity, 3), gb=gb))
    return segments


def bench_row(preset: str, count: int, seed: int, time_limit_s: float) -> list[object]:
    tiers = preset_tiers(preset)
    segments = synthetic_segments(count, seed)
    recommended = place_recommended(segments, tiers)
    started = time.perf_counter()
    result = optimize_placement(segments, tiers, time_limit_s=time_limit_s)
    wall_s = time.perf_counter() - started
    optimized = result.placement.total_cost_usd
    saved_pct = float((recommended.total_cost_usd - optimized) / recommended.total_cost_usd * 100)
    return [
        preset, count, f"{to_cents(recommended.total_cost_usd):,}", f"{to_cents(optimized):,}",
        f"{to_cents(result.lower_bound_usd):,}", f"{result.gap_pct:.3f}", f"{saved_pct:.2f}",
        result.method, f"{wall_s:.1f}",
    ]


def bench_rows() -> list:
    """The rows `make bench` reports: the seed set's tiers, 1k and 10k segments, 30 s each at most."""
    return [bench_row("seed-2009", 1_000, 42, 30.0), bench_row("seed-2009", 10_000, 42, 30.0)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--presets", nargs="+", default=["seed-2009", "on-prem-2025"])
    parser.add_argument("--time-limit", type=float, default=60.0, help="CBC time limit per run, seconds")
    parser.add_argument("--seed", type=int, default=2009)
    args = parser.parse_args()
    rows = [bench_row(p, n, args.seed, args.time_limit) for p in args.presets for n in args.sizes]
    headers = ["tiers", "segments", "recommended $", "optimized $", "lower bound $", "gap %", "saved %", "method"]
    headers.append("wall s")
    print(tabulate(rows, headers=headers, disable_numparse=True))
    segments = synthetic_segments(100_000, args.seed)
    started = time.perf_counter()
    choose_tiers(segments, preset_tiers("on-prem-2025"))
    print(f"\nper-object choice, 100k segments x 4 tiers: {time.perf_counter() - started:.3f} s")


if __name__ == "__main__":
    main()
