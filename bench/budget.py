"""The fleet budget (issue 17, part 3): the split of N GB of flash over 100 targets x 100k segments in <= 5 s.

Two figures:

* **the split** (apps.tiering.budget.budget_split, pure numpy) over 10M candidate segments of 100 targets:
  log-normal sizes, log-normal costs, 10 % on the tier now; the budget a fifth of what they hold. Median of
  3, against the 5 s bar, and against the physical limit of any greedy by ratio: one argsort (numpy's
  quicksort) of the ratios of the candidates worth something on the tier (the greedy's order must be computed
  at least once). Again with a previous run remembered (10 % of the segments chose before), moves costing $1
  each and a 25 % margin, and the explanations of that split (each eviction's replacement, each kept place's
  challenger: apps.tiering.budget.explain);
* **the read path** (apps.tiering.budget.services.fleet_budget: one query over every target's current run,
  the cost matrix, the split) on a fleet of 20 targets x 100k current recommendations of the seed's tiers
  written into the database (``<db>_bench_budget``, its own, created and migrated here; loaded once and
  reused), against reading the same rows' ids alone (fetch_arrays, the least any read of them costs); again
  with the split before it remembered (its chosen ids read back and matched).

    .venv/bin/python bench/run.py --only budget
"""

from __future__ import annotations

import dataclasses
import json
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from decimal import Decimal

import numpy as np

SPLIT_TARGETS, SPLIT_SEGMENTS = 100, 100_000
READ_TARGETS, READ_SEGMENTS = 20, 100_000
BAR_S = 5.0
GB = 1024**3


def _median(fn, repeats: int = 3) -> tuple[float, float]:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), max(times)


def bench_split(targets: int = SPLIT_TARGETS, segments: int = SPLIT_SEGMENTS, seed: int = 17) -> dict:
    """The pure split over ``targets`` x ``segments`` candidates."""
    from apps.tiering.budget import Capacity, Items, Outcome, TargetTerms, budget_split, explain
    from apps.tiering.moves.payback import MovePolicy

    rng = np.random.default_rng(seed)
    n = targets * segments
    size = rng.lognormal(20, 2, n).astype(np.int64)
    on_tier = rng.random(n) < 0.1
    on, elsewhere = rng.lognormal(0, 2, n), rng.lognormal(0, 2, n)
    items = Items(target=np.repeat(np.arange(targets), segments), segment_id=np.tile(np.arange(segments), targets),
                  size_bytes=size, on_tier=on_tier, may_move=rng.random(n) < 0.9, cost_on_tier=on,
                  cost_elsewhere=elsewhere, saving_if_moved=np.where(on_tier, on - elsewhere, 1.1 * elsewhere - on),
                  move_cost_usd=np.zeros(n))
    terms = [TargetTerms(f"t{i}", MovePolicy(), 0.5) for i in range(targets)]
    capacity = Capacity(gb=float(size.sum()) / GB / 5)
    median, worst = _median(lambda: budget_split(items, terms, capacity))
    # The items that compete (worth something on the tier): the greedy sorts those, once.
    value = items.value
    ratio = (value / np.maximum(size, 1))[value > 0]
    sort_s, _ = _median(lambda: np.argsort(-ratio, kind="quicksort"))
    remembered = dataclasses.replace(items, move_cost_usd=np.full(n, 1.0), incumbent=rng.random(n) < 0.1)
    dear = [TargetTerms(f"t{i}", MovePolicy(dba_cost_usd=Decimal(1)), 0.5, margin=0.25) for i in range(targets)]
    memory_s, memory_worst = _median(lambda: budget_split(remembered, dear, capacity))
    split = budget_split(remembered, dear, capacity)
    explain_s, _ = _median(lambda: (explain.evictions(remembered, dear, split), explain.kept(remembered, split)))
    return {"candidates": n, "split_s": round(median, 2), "worst_s": round(worst, 2), "bar_s": BAR_S,
            "met": max(worst, memory_worst) <= BAR_S, "argsort_s": round(sort_s, 2),
            "ratio_to_argsort": round(median / sort_s, 1), "split_remembered_costed_s": round(memory_s, 2),
            "remembered_worst_s": round(memory_worst, 2), "explain_s": round(explain_s, 2),
            "evicted": int((split.outcome == Outcome.EVICTED).sum())}


def _fleet(targets: int, segments: int, seed: int = 5) -> list:
    """``targets`` enabled targets on the seed's set, each with a current run of ``segments`` recommendations
    priced by the cost model (written by COPY); reused when there already."""
    from django.db import connection, transaction
    from django.utils import timezone

    from apps.core.pgcopy import copy_from_arrays
    from apps.targets.models import Target
    from apps.tiering import costmodel
    from apps.tiering import sql as pg
    from apps.tiering.models import RecommendationRun, Tier
    from apps.tiering.tiers import tier_to_model

    names = [f"bench-budget-{i:03d}" for i in range(targets)]
    ready = RecommendationRun.objects.filter(target__name__in=names, state="current", recommendations=segments)
    if ready.count() == targets:
        return list(Target.objects.filter(name__in=names))
    Target.objects.filter(name__startswith="bench-budget-").delete()
    tiers = list(Tier.objects.filter(tier_set="seed-2009").order_by("pk"))
    models = [tier_to_model(t) for t in tiers]
    ids = np.array([t.pk for t in tiers])
    rng = np.random.default_rng(seed)
    made = []
    for name in names:
        target = Target.objects.create(name=name, mode=Target.Mode.DEMO, enabled=True, tier_set_id="seed-2009")
        run = RecommendationRun.objects.create(target=target, computed_at=timezone.now(), state="current",
                                               window_days=7, statistic="p95", recommendations=segments)
        gb = rng.lognormal(-1, 1.5, segments)
        iops = rng.pareto(1.2, segments) * gb * 2
        current = rng.choice(len(tiers), segments, p=[0.35, 0.6, 0.05][:len(tiers)])
        costs = costmodel.cost_matrix(models, iops, gb, pooled=True)
        best = costmodel.cheapest(costs, models, current)
        rows = np.arange(segments)
        savings = np.round((costs[rows, current] - costs[rows, best]) * 100)
        action = (best != current).astype(np.int64)  # codes into ("keep", "move")
        measured = rng.random(segments) > 0.02
        columns = [
            ("run_id", "int8", np.full(segments, run.pk), None), ("segment_id", "int8", rows + 1, None),
            ("iops", "float8", iops, ~measured), ("measured", "bool", measured, None),
            ("size_bytes", "int8", (gb * GB).astype(np.int64), None), ("size_gb", "float8", gb, None),
            ("current_tier_id", "int8", ids[current], None), ("cost_tier_id", "int8", ids[best], None),
            ("recommended_tier_id", "int8", np.where(measured, ids[best], ids[current]), None),
            ("savings_usd", "int8", np.where(measured, savings, 0).astype(np.int64), None),
            ("action", "text", (np.where(measured, action, 0), ["keep", "move"]), None),
            ("findings", "int4", np.zeros(segments, np.int32), None),
            ("flash_cache", "text", (np.zeros(segments, np.int64), [""]), None),
            ("below_awr_capture", "bool", np.zeros(segments, bool), None),
            *((name, "int8", np.zeros(segments, np.int64), None) for name in (
                "read_requests", "write_requests", "physical_reads_blocks", "physical_reads_direct_blocks",
                "optimized_physical_reads", "table_scans", "db_block_changes")),
        ]
        with transaction.atomic(), connection.cursor() as cursor:
            copy_from_arrays(cursor.cursor, pg.RECOMMENDATIONS, columns)
        made.append(target)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE tiering_recommendation")
    return made


def bench_read(targets: int = READ_TARGETS, segments: int = READ_SEGMENTS) -> dict:
    """fleet_budget over a fleet of current recommendations in the database."""
    from django.db import connection
    from psycopg import sql

    from apps.core.pgcopy import fetch_arrays
    from apps.tiering import sql as pg
    from apps.tiering.budget.models import BudgetRun
    from apps.tiering.budget.services import budget_run_remember, fleet_budget

    fleet = _fleet(targets, segments)
    holding = float(fleet_budget(tier_name="flash", gb=1e9).split.total("gb_after"))
    median, worst = _median(lambda: fleet_budget(tier_name="flash", gb=holding / 2))
    params = {"tier": 0, "actions": ["keep", "move"], "current": "current", "targets": [t.pk for t in fleet],
              "move": "move"}
    from apps.tiering.models import Tier

    params["tier"] = Tier.objects.get(name="flash").pk
    ids_only = sql.SQL("SELECT q.segment_id FROM ({rows}) AS q(t, segment_id, a, b, c, d, e, f, g, h, i, j)").format(
        rows=pg.BUDGET_ROWS)

    def read_ids() -> None:
        with connection.cursor() as cursor:
            fetch_arrays(cursor.cursor, ids_only, params, (("segment_id", "int8"),))

    floor, _ = _median(read_ids)
    split = fleet_budget(tier_name="flash", gb=holding / 2)
    BudgetRun.objects.filter(tier__name="flash").delete()
    budget_run_remember(budget=split, author=None, author_name="bench", how="bench")
    remembered, _ = _median(lambda: fleet_budget(tier_name="flash", gb=holding / 2))
    BudgetRun.objects.filter(tier__name="flash").delete()
    return {"targets": targets, "recommendations": targets * segments, "candidates": int(split.rows["target"].size),
            "read_and_split_s": round(median, 2), "worst_s": round(worst, 2), "read_ids_only_s": round(floor, 2),
            "ratio_to_ids_only": round(median / floor, 1), "budget_gb": round(holding / 2, 1),
            "read_and_split_remembered_s": round(remembered, 2),
            "saving_usd_per_month": float(Decimal(split.split.total("saving_usd_per_month")).quantize(Decimal(1)))}


def bench_budget() -> dict:
    return {"split_100x100k": bench_split(), "read_20x100k": bench_read()}


def run_alone(setup: Callable[[str], None]) -> None:
    """``bench/run.py --only budget``: on its own database (``setup``: run.py's _setup_django), so that the fleet
    it writes stays out of the pages' figures; prints the figures as one JSON line."""
    setup("_bench_budget")
    from apps.tiering.tiers import tier_presets_install

    tier_presets_install()
    print(json.dumps(bench_budget()), flush=True)


def run_in_subprocess(run_py: str) -> dict | str:
    """``make bench``'s budget case: ``run_py --only budget`` in a process of its own (its Django database is
    not the others'); its figures, or its error output."""
    print("fleet budget ...", flush=True)
    done = subprocess.run([sys.executable, run_py, "--only", "budget"], capture_output=True, text=True)
    figures = json.loads(done.stdout.strip().splitlines()[-1]) if not done.returncode else done.stderr
    print(json.dumps(figures, indent=2), flush=True)
    return figures
