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

The benches live in modules of their own (bench_recommendations.py, bench_pages.py, bench_plan.py,
budget.py, bench_optimizer.py); this one sets up the databases, loads the large data set and runs them.

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

from bench.bench_recommendations import bench_recommendations, timed  # noqa: E402


def _setup_django(database_suffix: str = "_bench") -> None:
    from config.dotenv import load_dotenv_file

    load_dotenv_file()
    url = os.environ["DATABASE_URL"]
    base, _, name = url.rpartition("/")
    database = f"{name.split('?')[0]}{database_suffix}"
    os.environ["DATABASE_URL"] = f"{base}/{database}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")
    _create_database(url, database)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def _create_database(url: str, name: str) -> None:
    import psycopg

    admin_url = url.rpartition("/")[0] + "/postgres"
    with psycopg.connect(admin_url, autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            conn.execute(f'CREATE DATABASE "{name}"')


def _fresh_target(name: str):
    from apps.targets.models import TablespaceTier, Target
    from apps.tiering.models import Tier

    Target.objects.filter(name=name).delete()
    target = Target.objects.create(name=name, mode=Target.Mode.DEMO, enabled=False, tier_set_id="seed-2009")
    tiers = {t.name: t for t in Tier.objects.filter(tier_set="seed-2009")}
    for tablespace, tier in (("DATA01", "fast disk"), ("DATA02", "fast disk"), ("DATA03", "hi-cap disk"),
                             ("DATA04", "fast disk"), ("INDX01", "fast disk"), ("INDX02", "fast disk"),
                             ("HIST01", "hi-cap disk"), ("FLASH01", "flash")):
        TablespaceTier.objects.create(target=target, tablespace_name=tablespace, tier=tiers[tier])
    return target


def bench_ingest(n_segments: int = 2_000, n_hours: int = 168) -> dict:  # noqa: C901
    """Our ingest path vs raw COPY of the same rows into the same table."""
    from django.db import connection, transaction

    from apps.snapshots.services import collection_store
    from apps.snapshots.store import SEGMENT_STAT_COLUMNS
    from apps.targets.base import CollectState
    from bench.fleet_collection import fleet_collection

    collection = fleet_collection(n_segments, n_hours, seed=7)
    target = _fresh_target("bench-ingest")
    now = collection.collected_at
    state = CollectState(now=now, history_start_at=now - dt.timedelta(days=8))
    columns = list(SEGMENT_STAT_COLUMNS)

    def store():
        return collection_store(target=target, collection=collection, kind="demo", state=state)

    def empty() -> None:
        # Both runs start from an empty stats table (TRUNCATE: no dead tuples left behind).
        with connection.cursor() as cursor:
            cursor.execute("TRUNCATE snapshots_segmentstat")
        target.snapshots.all().delete()

    store()  # first pass creates the segments, so both timed runs see the same table state
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {', '.join('st.' + c for c in columns)} FROM snapshots_segmentstat st "
                       "JOIN snapshots_snapshot sn ON sn.id = st.snapshot_id WHERE sn.target_id = %s", [target.id])
        rows = cursor.fetchall()
    empty()

    def raw_copy() -> None:
        with transaction.atomic(), connection.cursor() as cursor, \
                cursor.cursor.copy(f"COPY snapshots_segmentstat ({', '.join(columns)}) FROM STDIN") as copy:
            for row in rows:
                copy.write_row(row)

    # Best of three of each, alternating, so a busy moment of the machine hurts neither side alone.
    copy_times, ingest_times = [], []
    for _ in range(3):
        copy_times.append(timed(raw_copy)[1])
        empty()
        result, seconds = timed(store)
        ingest_times.append(seconds)
        empty()
    copy_s, ingest_s = min(copy_times), min(ingest_times)
    return {
        "rows": len(rows), "snapshots": result.snapshots_added, "ingest_s": round(ingest_s, 3),
        "raw_copy_s": round(copy_s, 3), "ratio_vs_raw_copy": round(copy_s / ingest_s, 3),
        "ingest_rows_per_s": round(len(rows) / ingest_s),
    }


def _load_large(target, n_segments: int, n_hours: int) -> None:
    """Bulk-load the data set with raw binary COPY, then build its daily rollups (ingest is measured apart)."""
    from django.db import connection

    from apps.snapshots.models import Segment, SegmentStat, Snapshot
    from apps.snapshots.rollups import segment_days_rebuild
    from apps.snapshots.store import segments_upsert
    from apps.targets.demo.schema import snap_end_at
    from apps.targets.rows import Collection, DatabaseInfo, SegmentKey
    from bench.fleet_collection import fleet_infos
    from bench.fleet_data import DEFAULT_FIRST_SNAP_ID, fleet_segment_stats

    infos = fleet_infos(n_segments, 11)
    database = DatabaseInfo(dbid=98, db_name="BIG", release="19.0.0.0.0", is_rac=False, instances=(1,))
    ids = segments_upsert(target_id=target.id, collection=Collection(database=database, segments=infos),
                          seen_at=dt.datetime.now(dt.timezone.utc))
    # Snapshot rows first: no other statement may run on the connection while its COPY is open.
    ends = {snap_id: snap_end_at(snap_id) for snap_id in range(DEFAULT_FIRST_SNAP_ID, DEFAULT_FIRST_SNAP_ID + n_hours)}
    snap_ids = {
        snap_id: Snapshot.objects.create(
            target=target, kind="demo", dbid=98, instance_number=1, snap_id=snap_id,
            begin_at=end - dt.timedelta(hours=1), end_at=end, startup_at=end - dt.timedelta(days=60),
            top_n_only=False).id
        for snap_id, end in ends.items()
    }
    columns = ["snapshot_id", "segment_id", "end_at", "interval_s", "physical_read_requests",
               "physical_write_requests", "physical_reads_blocks", "physical_writes_blocks",
               "physical_reads_direct_blocks", "physical_writes_direct_blocks", "optimized_physical_reads",
               "logical_reads", "db_block_changes", "table_scans", "space_allocated_bytes"]
    with connection.cursor() as cursor, cursor.cursor.copy(
        f"COPY snapshots_segmentstat ({', '.join(columns)}) FROM STDIN (FORMAT binary)"
    ) as copy:
        copy.set_types(["int8", "int8", "timestamptz", "float8"] + ["int8"] * 11)
        for row in fleet_segment_stats(n_segments, n_hours, 11):
            key = SegmentKey(row[1], row[2], row[3], row[4])
            copy.write_row((snap_ids[row[0]], ids[key], ends[row[0]], 3600.0, *row[8:]))
    segment_days_rebuild(target_id=target.id)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE snapshots_segmentstat")
    assert SegmentStat.objects.filter(snapshot__target=target).count() == n_segments * n_hours
    assert Segment.objects.filter(target=target).count() == n_segments


def large_target(n_segments: int = 100_000, n_hours: int = 168):
    """The recommendations target: n_segments x n_hours of hourly statistics with their rollups (loaded once)."""
    from apps.snapshots.models import RollupDay, SegmentStat, Snapshot
    from apps.snapshots.rollups import segment_days_rebuild
    from apps.targets.demo.schema import snap_end_at
    from apps.targets.models import Target
    from bench.fleet_data import DEFAULT_FIRST_SNAP_ID

    name = f"bench-{n_segments // 1000}k"
    existing = Target.objects.filter(name=name).first()
    if existing and Snapshot.objects.filter(target=existing).count() == n_hours \
            and Snapshot.objects.filter(target=existing).latest("end_at").end_at \
            == snap_end_at(DEFAULT_FIRST_SNAP_ID + n_hours - 1) \
            and existing.segments.count() == n_segments \
            and SegmentStat.objects.filter(snapshot__target=existing).exists():
        if not RollupDay.objects.filter(target=existing).exists():  # after a change of the rollups' form
            print("rebuilding the daily rollups of the loaded data set ...", flush=True)
            segment_days_rebuild(target_id=existing.id)
        return existing
    if existing:
        _drop_target(existing)
    target = _fresh_target(name)
    print(f"loading {n_segments:,} segments x {n_hours} hours (once; reused by later runs) ...", flush=True)
    _, load_s = timed(lambda: _load_large(target, n_segments, n_hours))
    print(f"  loaded in {load_s:.0f} s", flush=True)
    return target


def _drop_target(target) -> None:
    """Delete a bench target's rows in bulk (the ORM cascade would walk millions of rows)."""
    from django.db import connection

    from apps.snapshots.windows import window_base_drop

    with connection.cursor() as cursor:
        cursor.execute("DELETE FROM snapshots_segmentstat st USING snapshots_snapshot sn "
                       "WHERE sn.id = st.snapshot_id AND sn.target_id = %s", [target.id])
        cursor.execute("DELETE FROM snapshots_rollupday WHERE target_id = %s", [target.id])
        cursor.execute("DELETE FROM tiering_recommendation r USING tiering_recommendationrun run "
                       "WHERE run.id = r.run_id AND run.target_id = %s", [target.id])
    window_base_drop(target_id=target.id)
    target.delete()


def main() -> None:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=["ingest", "recommendations", "plan", "budget"],
                        help="only the ingest ratio, the refreshes of the 100k-segment target, or the 10k-move "
                             "plan (printed, not written to bench/results)")
    only = parser.parse_args().only
    report = {"machine": f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}",
              "run_at": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds")}
    if only == "ingest":
        # Its own database: the ingest runs TRUNCATE the segment-stat table between measurements.
        _setup_django("_bench_ingest")
        from apps.tiering.services import tier_presets_install

        tier_presets_install()
        print(json.dumps(bench_ingest()), flush=True)
        return
    if only == "budget":
        from bench.budget import run_alone
        return run_alone(_setup_django)
    if only == "plan":
        _setup_django()
        from apps.tiering.services import tier_presets_install
        from bench.bench_plan import bench_plan

        tier_presets_install()
        print(json.dumps(bench_plan(), indent=2), flush=True)
        return
    if only == "recommendations":
        _setup_django()
        from apps.tiering.services import tier_presets_install

        tier_presets_install()
        print(json.dumps(bench_recommendations(large_target()), indent=2), flush=True)
        return
    import subprocess

    print("ingest ...", flush=True)
    done = subprocess.run([sys.executable, __file__, "--only", "ingest"], capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"bench: the ingest run failed:\n{done.stderr}")
    report["ingest"] = json.loads(done.stdout.strip().splitlines()[-1])
    print(json.dumps(report["ingest"], indent=2), flush=True)
    _setup_django()
    from apps.tiering.services import tier_presets_install

    tier_presets_install()
    target = large_target()
    print("recommendations (100k segments x 168 hours) ...", flush=True)
    report["recommendations_100k"] = bench_recommendations(target)
    print(json.dumps(report["recommendations_100k"], indent=2), flush=True)
    print("pages ...", flush=True)
    from bench.bench_pages import bench_pages

    report["pages"] = bench_pages(target)
    print(json.dumps(report["pages"], indent=2), flush=True)
    print("move plan (10k moves, made and exported) ...", flush=True)
    from bench.bench_plan import bench_plan

    report["plan_10k"] = bench_plan()
    print(json.dumps(report["plan_10k"], indent=2), flush=True)
    from bench.budget import run_in_subprocess
    report["budget"] = run_in_subprocess(__file__)
    print("optimizer ...", flush=True)
    from bench.bench_optimizer import bench_rows

    report["optimizer"] = bench_rows()
    print(json.dumps(report["optimizer"], indent=2, default=str), flush=True)
    out = ROOT / "bench" / "results" / "latest.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps(report, indent=2, default=str) + "\n")
    print(f"written to {out.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
