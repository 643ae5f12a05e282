"""`make bench`: speed as ratios against the physical limit, measured in one run.

* ingest: our collection path (segment upsert, whole-snapshot transactions,
  COPY) against a raw COPY of the same segment-stat rows into the same table,
  best of three each;
* recommendations for 100k segments and 7 days of hourly statistics (16.8M
  segment-stat rows in the database, with their daily rollups): a whole
  refresh as a collection runs it (window figures, cost model, seed rules,
  store), steady and first of the day, its parts, and what the window
  figures cost computed from the raw statistics instead of the rollups;
* pages: p95 server time of every dashboard page (Django test client, no
  network) against a trivial page (the login form), on the 100k-segment target
  (its 100k current recommendations are what the pages read);
* a move plan of 10k moves made and exported (bench/bench_plan.py) against
  the issue's 2 s, and against the recommendations' own export of those rows.

* fleet scale (bench/fleet_scale.py): a generated fleet of 12 targets x 20k segments x 7 days beside the
  100k-segment target (>= 30M segment-stat rows in all), BENCH_SCALE scaling segment counts down;
* the summary keys the product quotes (rows, ingest_vs_copy, page_p95_ms, healthz_p95_ms,
  recommend_100k_seconds, export_*, load_*, collect_overlap, pg_bytes_per_million_rows,
  retention_drop_seconds), None where not measured; bench/report.py and bench/chart.py turn them into
  docs/performance.md's table and chart.

The benches live in modules of their own (bench_*.py, budget.py, fleet_scale.py); setup_data.py sets up the
databases and loads the large data set; this one runs them.

Runs against its own databases (``<DATABASE_URL's name>_bench``, and
``..._bench_ingest`` for the ingest ratio, whose runs truncate the stats
table), created and migrated here; the large data set is loaded once and reused.
Figures are printed and written to bench/results/latest.json. Never a test:
timings depend on the machine; the README quotes a run with its command.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import platform
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.bench_recommendations import bench_recommendations  # noqa: E402
from bench.fleet_scale import bench_scale, scaled  # noqa: E402
from bench.setup_data import large_target, setup_django  # noqa: E402


def _subprocess_json(what: str, env: dict | None = None) -> dict:
    import subprocess

    done = subprocess.run([sys.executable, __file__, "--only", what], capture_output=True, text=True,
                          env={**os.environ, **(env or {})})
    if done.returncode:
        raise SystemExit(f"bench: the {what} run failed:\n{done.stderr}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def _run_alone(only: str, scale: float) -> None:
    if only == "budget":
        from bench.budget import run_alone
        return run_alone(setup_django)
    # ingest and retention: their own database (the ingest runs TRUNCATE the segment-stat table, the
    # retention run prunes every target it holds).
    setup_django({"ingest": "_bench_ingest", "retention": "_bench_ingest", "collect": "_bench_collect"}.get(only, "_bench"))
    from apps.tiering.tiers import tier_presets_install

    tier_presets_install()
    if only == "ingest":
        from bench.bench_ingest import bench_ingest
        print(json.dumps(bench_ingest()), flush=True)
    elif only == "retention":
        from bench.fleet_scale import retention_drop
        print(json.dumps(retention_drop(scale)), flush=True)
    elif only == "plan":
        from bench.bench_plan import bench_plan
        print(json.dumps(bench_plan(), indent=2), flush=True)
    elif only == "collect":
        from bench.bench_collect import bench_collect
        print(json.dumps(bench_collect()), flush=True)
    elif only == "load":
        from bench.bench_load import bench_load_compare
        seconds = int(os.environ.get("BENCH_LOAD_SECONDS", "60"))
        print(json.dumps(bench_load_compare(large_target(scaled(100_000, scale)).name, seconds), indent=2), flush=True)
    elif only == "recommendations":
        print(json.dumps(bench_recommendations(large_target(scaled(100_000, scale))), indent=2), flush=True)


def summary(report: dict) -> dict:
    """The keys the product side quotes, from the sections measured (None where a figure was not measured)."""
    pages = report.get("pages") or {}
    last_hour = (report.get("recommendations_100k") or {}).get("last_hour_of_a_day") or {}
    return {
        "rows": report.get("rows"),
        "ingest_vs_copy": (report.get("ingest") or {}).get("ratio_vs_raw_copy"),
        "page_p95_ms": {label: figures["p95_ms"] for label, figures in pages.items()
                        if "csv" not in label and not label.startswith("trivial")},
        "healthz_p95_ms": report.get("healthz_p95_ms"),
        "recommend_100k_seconds": (last_hour.get("refresh_s") or {}).get("median"),
        **{key: (report.get("export") or {}).get(key) for key in ("export_rows_per_s", "export_first_byte_ms")},
        **{key: (report.get("load") or {}).get(key) for key in ("load_p95_ms", "load_errors")},
        "collect_overlap": (report.get("collect") or {}).get("collect_overlap"),
        "pg_bytes_per_million_rows": (report.get("storage") or {}).get("pg_bytes_per_million_rows"),
        "retention_drop_seconds": (report.get("retention") or {}).get("retention_drop_seconds"),
    }


def main() -> None:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=["ingest", "recommendations", "plan", "budget", "retention", "load", "collect"],
                        help="one bench alone (printed, not written to bench/results)")
    parser.add_argument("--skip", action="append", default=[], choices=["plan", "budget", "optimizer", "load", "collect"],
                        help="leave a bench out of a quick run (its section is then absent from latest.json)")
    args = parser.parse_args()
    only, skip = args.only, set(args.skip)
    scale = bench_scale()
    if only:
        return _run_alone(only, scale)
    report = {"machine": f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}",
              "run_at": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"), "bench_scale": scale,
              # What made the figures: make bench runs bench/run.py with no option.
              "command": " ".join([".venv/bin/python bench/run.py", *sys.argv[1:]]) if sys.argv[1:] else "make bench"}
    print("ingest ...", flush=True)
    report["ingest"] = _subprocess_json("ingest")
    print(json.dumps(report["ingest"], indent=2), flush=True)
    print("retention drop ...", flush=True)
    report["retention"] = _subprocess_json("retention", {"TIERSCOPE_RETENTION_DAYS": "1"})
    print(json.dumps(report["retention"], indent=2), flush=True)
    if "collect" not in skip:
        print("collect overlap (200 demo targets, 2 worker processes) ...", flush=True)
        report["collect"] = _subprocess_json("collect")
        print(json.dumps(report["collect"], indent=2), flush=True)
    setup_django()
    from apps.tiering.tiers import tier_presets_install
    from bench import fleet_scale

    tier_presets_install()
    large = scaled(100_000, scale)
    target = large_target(large)
    print(f"fleet ({fleet_scale.FLEET_TARGETS} targets x {scaled(fleet_scale.FLEET_SEGMENTS, scale):,} segments x "
          f"{fleet_scale.FLEET_DAYS} days) ...", flush=True)
    report["fleet"] = fleet_scale.fleet_ensure(scale)
    report["rows"] = fleet_scale.segment_stat_rows()
    report["storage"] = fleet_scale.storage_figures(report["rows"])
    print(json.dumps({"fleet": report["fleet"], "rows": report["rows"], "storage": report["storage"]}, indent=2),
          flush=True)
    print(f"recommendations ({large:,} segments x 168 hours) ...", flush=True)
    report["recommendations_100k"] = bench_recommendations(target)
    print(json.dumps(report["recommendations_100k"], indent=2), flush=True)
    print("pages ...", flush=True)
    from bench.bench_pages import bench_pages

    report["pages"] = bench_pages(target)
    report["healthz_p95_ms"] = fleet_scale.healthz_p95_ms()
    report["export"] = fleet_scale.export_figures(target, report["pages"])
    print(json.dumps({"pages": report["pages"], "healthz_p95_ms": report["healthz_p95_ms"],
                      "export": report["export"]}, indent=2), flush=True)
    if "load" not in skip:
        print("load (50 users, 60 s per gunicorn configuration) ...", flush=True)
        from bench.bench_load import bench_load_compare

        report["load"] = bench_load_compare(target.name, int(os.environ.get("BENCH_LOAD_SECONDS", "60")))
        print(json.dumps(report["load"], indent=2), flush=True)
    if "plan" not in skip:
        print("move plan (10k moves, made and exported) ...", flush=True)
        from bench.bench_plan import bench_plan

        report["plan_10k"] = bench_plan()
        print(json.dumps(report["plan_10k"], indent=2), flush=True)
    if "budget" not in skip:
        from bench.budget import run_in_subprocess
        report["budget"] = run_in_subprocess(__file__)
    if "optimizer" not in skip:
        print("optimizer ...", flush=True)
        from bench.bench_optimizer import bench_rows

        report["optimizer"] = bench_rows()
        print(json.dumps(report["optimizer"], indent=2, default=str), flush=True)
    report.update(summary(report))
    out = ROOT / "bench" / "results" / "latest.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps(report, indent=2, default=str) + "\n")
    print(f"written to {out.relative_to(ROOT)}")
    from bench.report import write_report

    print(write_report(out), flush=True)


if __name__ == "__main__":
    main()
