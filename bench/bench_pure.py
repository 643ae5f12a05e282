"""Time the pure computations on their largest inputs, no database: reported, never asserted (timings depend on
the machine; the tests check what these calls return, not how fast).

* the cost model choosing a tier for 100k objects (the design's bar: recommendations for 100k segments <= 1 s),
  best of two;
* the payback of 100k moves weighed at once (numpy over the arrays);
* the room check of a plan of 10k moves (the plans' bar: 2 s for 10k moves built and exported);
* the AWR report parser on a report padded past 5 MB;
* the demo source backfilling eight days from cold caches (CPU time of this process).

Run: .venv/bin/python bench/bench_pure.py
"""

from __future__ import annotations

import datetime as dt
import random
import sys
import time
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402
from tabulate import tabulate  # noqa: E402

from apps.targets.awr_report import parse_report  # noqa: E402
from apps.targets.base import CollectState  # noqa: E402
from apps.targets.demo import simulator  # noqa: E402
from apps.targets.demo.source import DemoSource  # noqa: E402
from apps.targets.rows import TablespaceSpace  # noqa: E402
from apps.tiering.costmodel import DeviceTier, StorageObject, choose_tiers  # noqa: E402
from apps.tiering.moves.feasibility import Move, feasibility  # noqa: E402
from apps.tiering.moves.payback import MovePolicy, move_costs  # noqa: E402

GB = 1024**3
SAMPLES = ROOT.parent / "shared" / "awr-samples"
BIGGEST_REPORT = "eyko139__awr_reports__awr_PRDG_1_237812_237837.htm"
SEED_TIERS = (
    DeviceTier(name="hi-cap disk", device_cost_usd=Decimal(250), device_gb=1000, device_iops=100),
    DeviceTier(name="fast disk", device_cost_usd=Decimal(600), device_gb=300, device_iops=300),
    DeviceTier(name="flash", device_cost_usd=Decimal(2400), device_gb=80, device_iops=30_000),
)


def timed(call: Callable[[], object], clock: Callable[[], float] = time.perf_counter) -> float:
    started = clock()
    call()
    return clock() - started


def tier_choice_s() -> float:
    rng = random.Random(7)
    objects = [StorageObject(f"o{i}", iops=rng.paretovariate(1.2), gb=rng.lognormvariate(1, 1.5))
               for i in range(100_000)]
    return min(timed(lambda: choose_tiers(objects, SEED_TIERS)) for _ in range(2))


def payback_s() -> float:
    rng = np.random.default_rng(16)
    n = 100_000
    args = dict(size_bytes=rng.uniform(0, 50 * GB, n), read_mb_s=rng.choice([40.0, np.nan], n),
                write_mb_s=np.full(n, 100.0), saving_usd_per_month=rng.uniform(-5, 50, n),
                policy=MovePolicy(dba_cost_usd=Decimal(20)))
    return timed(lambda: move_costs(**args))


def feasibility_s() -> float:
    moves = [Move(GB, f"TS{i % 7}", f"TS{(i + 1) % 7}") for i in range(10_000)]
    room = {f"TS{i}": TablespaceSpace(f"TS{i}", size_bytes=2000 * GB, used_bytes=100 * GB, max_size_bytes=2000 * GB)
            for i in range(7)}
    return timed(lambda: feasibility(moves, room))


def parse_5mb_s() -> float:
    data = (SAMPLES / BIGGEST_REPORT).read_bytes().decode("utf-8")
    start, end = data.index('<h3 class="awr">Segments by Logical Reads'), data.index("End of Report")
    padded = data[:end] + data[start:end] * 4 + data[end:]
    return timed(lambda: parse_report(padded, filename="padded.htm"))


def demo_backfill_cpu_s() -> float:
    simulator.clear_caches()
    now = dt.datetime(2026, 11, 20, 11, 0, tzinfo=dt.timezone.utc)
    state = CollectState(now=now, history_start_at=now - dt.timedelta(days=8))
    return timed(lambda: DemoSource(seed=99).collect(state), clock=time.process_time)


BENCHES = (
    ("cost model: tiers for 100k objects", tier_choice_s, "<= 1 s (design)"),
    ("payback: 100k moves weighed", payback_s, ""),
    ("feasibility: 10k moves", feasibility_s, "<= 2 s for a whole plan"),
    ("AWR report parser: 5 MB report", parse_5mb_s, ""),
    ("demo source: 8-day backfill, cold caches (CPU)", demo_backfill_cpu_s, ""),
)


def main() -> None:
    rows = [[name, f"{bench():.3f}", reference] for name, bench, reference in BENCHES]
    print(tabulate(rows, headers=["computation", "seconds", "reference"]))


if __name__ == "__main__":
    main()
