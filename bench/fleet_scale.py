"""Fleet scale for `make bench`: the generated fleet beside the 100k-segment target, and the figures read off the
whole data set (segment-stat rows, bytes per million rows, healthz, the retention drop).

``BENCH_SCALE`` (float, default 1.0) scales every segment count down for a smaller run (e.g. 0.05): at 1.0 the
fleet is 12 targets x 20k segments x 7 days hourly (40.3M segment-stat rows) beside the 100k-segment target's
16.8M. The fleet is built by manage.py generate_fleet's path (apps.tiering.demo_fleet: the collection
path) and reused by later runs, which add only the hours since the last one.
"""

from __future__ import annotations

import os
import statistics
import time

FLEET_TARGETS = 12
FLEET_SEGMENTS = 20_000
FLEET_DAYS = 7
LARGE_SEGMENTS = 100_000


def bench_scale() -> float:
    raw = os.environ.get("BENCH_SCALE", "1.0")
    try:
        scale = float(raw)
    except ValueError:
        raise SystemExit(f"bench: BENCH_SCALE must be a number between 0 and 1, got {raw!r}") from None
    if not 0 < scale <= 1:
        raise SystemExit(f"bench: BENCH_SCALE must be a number in (0, 1], got {raw!r}")
    return scale


def scaled(count: int, scale: float) -> int:
    return max(10, round(count * scale))


def fleet_ensure(scale: float) -> dict:
    """The bench's fleet, generated or extended to the last hour; what it holds and what was added."""
    from django.utils import timezone

    from apps.tiering.demo_fleet import fleet_plan, fleet_target_generate

    segments = scaled(FLEET_SEGMENTS, scale)
    prefix = f"bench-fleet-{segments}"  # one fleet per segment count: another BENCH_SCALE builds its own
    plans = fleet_plan(targets=FLEET_TARGETS, segments=segments, days=FLEET_DAYS, seed=1_000, prefix=prefix,
                       now=timezone.now())
    added, started = 0, time.perf_counter()
    for plan in plans:
        if plan.hours:
            print(f"  {plan.name}: {plan.segments:,} segments x {plan.hours} hours ...", flush=True)
            added += fleet_target_generate(plan).rows_added
    seconds = time.perf_counter() - started
    return {"targets": FLEET_TARGETS, "segments_per_target": segments, "days": FLEET_DAYS, "prefix": prefix,
            "rows_added_this_run": added, "seconds_this_run": round(seconds, 1),
            "rows_per_s_this_run": round(added / seconds) if added and seconds else None}


def segment_stat_rows() -> int:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM snapshots_segmentstat")
        return cursor.fetchone()[0]


def storage_figures(rows: int) -> dict:
    """pg_bytes_per_million_rows. The single call site of bench/bench_storage.py's bench_storage() when that
    module is present; else the statistics table's total size (heap, indexes, TOAST) per million rows."""
    try:
        from bench.bench_storage import bench_storage
    except ImportError:
        from django.db import connection

        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_total_relation_size('snapshots_segmentstat')")
            size = cursor.fetchone()[0]
        return {"pg_bytes_per_million_rows": round(size / rows * 1e6) if rows else None,
                "storage_measured_by": "pg_total_relation_size(snapshots_segmentstat) / rows"}
    return bench_storage()


def healthz_p95_ms(requests: int = 200) -> float:
    """p95 server time of /healthz (Django test client, no network). 503 counts too: the bench runs no worker or
    beat, so their heartbeats are stale, and the page does the same checks either way."""
    import logging

    from django.test import Client

    client = Client(HTTP_HOST="127.0.0.1")
    times = []
    logging.getLogger("django.request").setLevel(logging.CRITICAL)  # a 503 per request is expected here
    for _ in range(requests):
        start = time.perf_counter()
        response = client.get("/healthz")
        times.append((time.perf_counter() - start) * 1000)
        if response.status_code not in (200, 503):
            raise SystemExit(f"bench: /healthz answered {response.status_code}")
    return round(statistics.quantiles(times, n=20)[-1], 1)


def export_figures(target, pages: dict) -> dict:
    """export_rows_per_s and export_first_byte_ms. The single call site of bench/bench_export.py's
    bench_export(target) when that module is present; else from the recommendations CSV page's timing in
    bench_pages (the whole body's median, and its first rows')."""
    try:
        from bench.bench_export import bench_export
    except ImportError:
        csv = next((figures for label, figures in pages.items() if "csv" in label), None)
        rows = target.segments.count()
        if not csv:
            return {"export_rows_per_s": None, "export_first_byte_ms": None}
        return {"export_rows_per_s": round(rows / (csv["median_ms"] / 1000)) if csv.get("median_ms") else None,
                "export_first_byte_ms": csv.get("first_rows_median_ms"),
                "export_measured_by": "recommendations CSV page timing (bench_pages)"}
    return bench_export(target)


def retention_drop(scale: float) -> dict:
    """retention_drop_seconds: snapshot_prune timed on a generated target of 2 days whose oldest day falls out
    (RETENTION_DAYS=1, set by the caller's environment), in the ingest database so no other data is pruned. The
    single call site of bench/bench_storage.py's bench_retention_drop() when that module is present."""
    try:
        from bench.bench_storage import bench_retention_drop
    except ImportError:
        pass
    else:
        return bench_retention_drop()
    from django.utils import timezone

    from apps.snapshots.models import SegmentStat
    from apps.snapshots.services import snapshot_prune
    from apps.targets.models import Target
    from apps.tiering.demo_fleet import fleet_plan, fleet_target_generate
    from bench.setup_data import drop_target

    segments = scaled(FLEET_SEGMENTS, scale)
    for target in Target.objects.filter(name__startswith="bench-retention-"):
        drop_target(target)
    now = timezone.now()
    (plan,) = fleet_plan(targets=1, segments=segments, days=2, seed=7_000, prefix=f"bench-retention-{segments}",
                         now=now)
    fleet_target_generate(plan)
    before = SegmentStat.objects.count()
    start = time.perf_counter()
    deleted = snapshot_prune(now=now)  # snapshots with their cascaded rows
    seconds = time.perf_counter() - start
    return {"retention_drop_seconds": round(seconds, 3), "retention_deleted_objects": deleted,
            "retention_dropped_rows": before - SegmentStat.objects.count(), "retention_segments": segments}
