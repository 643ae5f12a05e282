"""The recommendations CSV download's speed, through the real view (Django test client, streamed body): rows a
second, the first part's time (header and first rows), the whole body's time and the peak Python memory while
it streams (tracemalloc, in a run of its own: tracing slows the code it traces). Goal: >= 50k rows/s, first
byte <= 200 ms, memory flat in the number of rows.

``bench_export(target)`` measures any target (bench/run.py's 100k-segment one). Alone, on a synthetic target
of its own (segments and a current run of recommendations inserted directly: tables, indexes, partitions,
LOBs, moves and keeps, tablespaces mapped so moves carry DDL), in its own database
``<DATABASE_URL's name>_bench_export`` (``--database-suffix`` names another):

    .venv/bin/python bench/bench_export.py --rows 20000

It measures the download once the run's export is rendered and stored (apps.tiering.recommendations.export_store), as it is after
a refresh, and reports the rendering's own time; ``--no-render`` measures the download that words every row.
"""

from __future__ import annotations

import statistics
import sys
import time
import tracemalloc
from decimal import Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _client(target):
    from django.contrib.auth import get_user_model
    from django.test import Client

    user, _ = get_user_model().objects.get_or_create(username="bench-viewer")
    client = Client(HTTP_HOST="127.0.0.1")
    client.force_login(user)
    return client, f"/targets/{target.name}/recommendations/?format=csv"


def _download(client, url: str) -> tuple[float, float, int, int, float]:
    """(first part's ms, whole body's s, rows, bytes, this process's CPU s) of one streamed download."""
    start, cpu = time.perf_counter(), time.process_time()
    response = client.get(url)
    if response.status_code != 200 or not response.streaming:
        raise SystemExit(f"bench_export: {url} answered {response.status_code} (streaming={response.streaming})")
    parts = iter(response.streaming_content)
    first = b""
    while not first.count(b"\n") > 1:  # the header and at least one row
        part = next(parts, None)
        if part is None:
            break
        first += part
    first_ms = (time.perf_counter() - start) * 1000
    lines, size = first.count(b"\n"), len(first)
    for part in parts:
        lines += part.count(b"\n")
        size += len(part)
    seconds = time.perf_counter() - start
    return first_ms, seconds, lines - 1, size, time.process_time() - cpu  # lines: DDL cells' newlines too


def _rows(target) -> int:
    from apps.tiering.models import Recommendation

    return Recommendation.objects.current(target_id=target.id).count()


def bench_export(target, repeats: int = 3, render: bool = True) -> dict:
    """The median of ``repeats`` downloads of ``target``'s recommendations CSV, and its peak memory: after the
    current run's export is rendered and stored (as the task after a refresh does; its time reported), or with
    ``render`` False with none stored (every row worded at the download)."""
    from apps.tiering.models import ExportLine, ExportRender, RecommendationRun
    from apps.tiering.recommendations.export_store import export_render

    client, url = _client(target)
    rows = _rows(target)
    run_id = RecommendationRun.objects.get(target=target, state=RecommendationRun.State.CURRENT).id
    ExportRender.objects.filter(run_id=run_id).delete()
    ExportLine.objects.filter(run_id=run_id).delete()
    render_seconds = None
    if render:
        start = time.perf_counter()
        export_render(run_id=run_id)
        render_seconds = round(time.perf_counter() - start, 3)
    runs = [_download(client, url) for _ in range(repeats)]
    tracemalloc.start()
    try:
        _download(client, url)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    seconds = statistics.median(run[1] for run in runs)
    return {
        "rows": rows, "bytes": runs[0][3], "export_seconds": round(seconds, 3),
        "export_rows_per_s": round(rows / seconds) if seconds else None,
        "export_first_byte_ms": round(statistics.median(run[0] for run in runs), 1),
        "peak_memory_mb": round(peak / 2**20, 1),
        # The Python side's CPU time (PostgreSQL's is apart): on a loaded machine, wall time is not the code's.
        "export_cpu_seconds": round(statistics.median(run[4] for run in runs), 3),
        "render_seconds": render_seconds,
    }


def export_target(rows: int, name: str | None = None):
    """A target of ``rows`` segments with a current run recommending each (made once per size, then reused)."""
    from django.utils import timezone

    from apps.snapshots.models import Snapshot
    from apps.targets.models import Target
    from apps.tiering.models import Recommendation, RecommendationRun
    from bench.setup_data import MOVE_TABLESPACES, fresh_target, seed_tiers, synthetic_segments

    name = name or f"bench-export-{rows}"
    existing = Target.objects.filter(name=name).first()
    if existing and _rows(existing) == rows:
        return existing
    now = timezone.now()
    target = fresh_target(name, MOVE_TABLESPACES,
                          capabilities={"release": "19.0.0.0.0", "dbid": 4343, "block_size_bytes": 8192})
    tiers = seed_tiers()
    Snapshot.objects.create(target=target, kind="demo", dbid=4343, instance_number=1, snap_id=1,
                            begin_at=now - timezone.timedelta(hours=1), end_at=now, startup_at=now, top_n_only=False)
    kinds = [("TABLE", ""), ("INDEX", ""), ("TABLE PARTITION", "P{:06d}"), ("INDEX PARTITION", "P{:06d}"),
             ("LOBSEGMENT", ""), ("TABLE", "")]
    segments = synthetic_segments(target, rows, kinds=kinds, per_table=12, digits=6,
                                  tablespaces=("DATA01", "HIST01", "FLASH01"), now=now)
    run = RecommendationRun.objects.create(target=target, computed_at=now, state=RecommendationRun.State.CURRENT,
                                           window_days=7, statistic="p95", recommendations=rows)
    onto = [tiers["flash"], tiers["hi-cap disk"], tiers["fast disk"]]
    recs = []
    for i, seg in enumerate(segments):
        moves = i % 4 != 3
        size_gb = seg.size_bytes / 2**30
        iops = 0.5 + (i % 97) * 3.7
        recs.append(Recommendation(
            run=run, segment=seg, iops=iops, read_iops=iops * 0.8, write_iops=iops * 0.2, size_bytes=seg.size_bytes,
            size_gb=size_gb, intensity=iops / size_gb, read_requests=1000 + i, write_requests=100 + i,
            current_tier=tiers["fast disk"], cost_tier=onto[i % 3], recommended_tier=onto[i % 3] if moves else
            tiers["fast disk"], cost_now_usd=Decimal("9.00"), cost_after_usd=Decimal("4.00") if moves else
            Decimal("9.00"), savings_usd=Decimal("5.00") if moves else Decimal("0.00"),
            io_time_saved_s_per_day=12.25 if moves else 0.0,
            move_seconds=None if i % 3 == 0 else 12.5, move_redo_bytes=seg.size_bytes, move_cost_usd=Decimal("1.00"),
            payback_days=6.0 if moves else None, action="move" if moves else "keep"))
    Recommendation.objects.bulk_create(recs, batch_size=5000)
    return target


def main() -> None:
    import argparse
    import json

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=20_000, help="recommendations of the synthetic target")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--no-render", action="store_true", help="store no rendered lines: word every row")
    parser.add_argument("--database-suffix", default="_bench_export", help="of the bench's own database's name")
    options = parser.parse_args()
    from bench.setup_data import setup_django as _setup_django

    _setup_django(options.database_suffix)
    from apps.tiering.tiers import tier_presets_install

    tier_presets_install()
    target = export_target(options.rows)
    print(json.dumps(bench_export(target, options.repeats, render=not options.no_render), indent=2), flush=True)


if __name__ == "__main__":
    main()
