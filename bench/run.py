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
import statistics
import sys
import time
from pathlib import Path
from unittest import mock

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


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


def _quiet(limit_s: float = 300.0) -> float:
    """Wait until no autovacuum works on the bench's database (the undone hours leave dead rows behind,
    and on two cores a vacuum of the 16.8M-row statistics table competes with what is measured);
    returns the seconds waited."""
    from django.db import connection

    start = time.perf_counter()
    while time.perf_counter() - start < limit_s:
        with connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'autovacuum worker' "
                           "AND datname = current_database()")
            if not cursor.fetchone()[0]:
                break
        time.sleep(1)
    return time.perf_counter() - start


def _timed(fn):
    start = time.perf_counter()
    result = fn()
    return result, time.perf_counter() - start


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
        copy_times.append(_timed(raw_copy)[1])
        empty()
        result, seconds = _timed(store)
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
    _, load_s = _timed(lambda: _load_large(target, n_segments, n_hours))
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


def bench_recommendations(target) -> dict:
    """Refreshes of the loaded target (window figures from the rollups, cost model, rules, store).

    The data set ends at 22:00, so the two hours after it are the cases of a
    day: the refresh after its last (24th) snapshot, which rolls that
    snapshot up into the day's rollup and reads the heaviest last day; and
    the refresh after the first snapshot of the next day, whose window moves
    on a day: its base is the one prepared after an earlier refresh (as the
    worker does, off the refresh's path: timed apart) plus the day just
    ended, or, when none was prepared, every complete day merged again.
    Each such hour is stored by the ingest path, refreshed as a collection
    does, then undone. "Steady": a refresh with nothing new. The parts are
    timed one by one (a refresh reads the window and the segments at once).
    The raw aggregate is what the window figures cost without rollups: p95
    over every hourly row, in PostgreSQL.
    """
    from django.db.models import Max

    from apps.snapshots import figures
    from apps.snapshots.models import Snapshot
    from apps.snapshots.windows import raw_window_figures, window_base_drop, window_base_prepare, window_figures
    from apps.targets.models import TablespaceTier
    from apps.tiering import decision, services
    from apps.tiering.models import Tier

    now = Snapshot.objects.filter(target=target).aggregate(m=Max("end_at"))["m"]
    last_day = now.date()
    hour = dt.timedelta(hours=1)
    # The refresh would queue the next day's base to a worker; here it is built and timed where wanted.
    # Each group starts on a quiet database (see _quiet); the waits are reported. What a refresh leaves
    # to the worker is done here: the next day's bases where said, the runs replaced after each refresh.
    with mock.patch.object(figures, "window_base_prepare_task"), \
            mock.patch.object(services, "recommendation_runs_prune_task"):
        window_base_drop(target_id=target.id)
        waited = [_quiet()]
        cold_s = _refresh(target, now)
        steady = [_refresh(target, now) for _ in range(5)]
        waited.append(_quiet())
        late = [_next_hour(target, now + hour) for _ in range(3)]
        # As the worker prepares after the day's last collection: the days shared, then the whole base.
        _, prepare_s = _timed(lambda: window_base_prepare(target_id=target.id, last_day=last_day, days=7,
                                                          day_ends=True))
        waited.append(_quiet())
        first_of_day = [_next_hour(target, now + 2 * hour) for _ in range(3)]
        waited.append(_quiet())
        shared_only = [_next_hour(target, now + 2 * hour, prepared="shared") for _ in range(3)]
        waited.append(_quiet())
        unprepared = [_next_hour(target, now + 2 * hour, prepared="none") for _ in range(2)]
        waited.append(_quiet())
        # The parts of one steady refresh.
        figures, window_s = _timed(lambda: window_figures(target_id=target.id, last_day=last_day, days=7))
        segments, segments_s = _timed(lambda: services.segment_arrays(target_id=target.id))
        tiers = list(Tier.objects.filter(tier_set=target.tier_set))
        mapped = {m.tier_id: m.tier for m in TablespaceTier.objects.filter(target=target).select_related("tier")}
        columns, build_s = _timed(lambda: decision.build_recommendations(
            target=target, tiers=tiers, segments=segments, figures=figures, mapped_tiers=mapped,
            residency=services._latest_residency(target.id, segments["segment_id"]), now=now, window_days=7))
        _, store_s = _timed(lambda: services.recommendation_store(target_id=target.id, columns=columns, now=now))
        services.recommendation_runs_prune(target_id=target.id)
    raw, raw_s = _timed(lambda: raw_window_figures(target_id=target.id, last_day=last_day, days=7))
    assert len(raw) == len(figures)

    def figures_of(hours: list[dict]) -> dict:
        return {"ingest_s": round(statistics.median(h["ingest_s"] for h in hours), 3),
                "refresh_s": {"median": round(statistics.median(h["refresh_s"] for h in hours), 3),
                              "best": round(min(h["refresh_s"] for h in hours), 3),
                              "worst": round(max(h["refresh_s"] for h in hours), 3)},
                "roll_up_s": round(statistics.median(h["roll_up_s"] for h in hours), 3)}

    return {
        "segments": len(segments["segment_id"]), "hours": 168, "segment_stat_rows": 168 * len(segments["segment_id"]),
        "refresh_steady_s": {"median": round(statistics.median(steady), 3), "best": round(min(steady), 3),
                             "worst": round(max(steady), 3)},
        "last_hour_of_a_day": figures_of(late),
        "first_hour_of_a_day": figures_of(first_of_day),
        "first_hour_of_a_day_shared_days_prepared": figures_of(shared_only),
        "first_hour_of_a_day_unprepared": figures_of(unprepared),
        "next_day_bases_prepared_off_path_s": round(prepare_s, 3),
        "refresh_without_any_base_s": round(cold_s, 3),
        "parts_s": {"window_figures": round(window_s, 3), "segments": round(segments_s, 3),
                    "cost_model_and_rules": round(build_s, 3), "store": round(store_s, 3)},
        "window_from_raw_statistics_s": round(raw_s, 3),
        "waited_for_autovacuum_s": [round(w, 1) for w in waited],
    }


def _refresh(target, now: dt.datetime) -> float:
    """The seconds of one refresh; then, untimed, the runs it replaced are deleted, as the worker does
    after it (call with the refresh's tasks patched out)."""
    from apps.tiering import services

    _, seconds = _timed(lambda: services.recommendation_refresh(target_id=target.id, now=now))
    services.recommendation_runs_prune(target_id=target.id)
    return seconds


def _next_hour(target, end: dt.datetime, *, prepared: str = "whole") -> dict:
    """The hourly collection ending at ``end`` of every segment: stored by the ingest path, then the
    refresh that follows it (which rolls the new snapshot up first), both committed as in a worker;
    then undone (the snapshot deleted, the rollups and window bases put back as they were).
    ``prepared``: the bases prepared for the next day's window are used ("whole"), only the one of the
    days it shares with the current window ("shared"), or none."""
    from apps.snapshots import figures
    from apps.snapshots.models import RollupDay, WindowBase
    from apps.snapshots.models import Snapshot as SnapshotModel
    from apps.snapshots.services import collection_store
    from apps.targets.base import CollectState
    from apps.targets.demo.schema import last_full_snap_id
    from apps.targets.rows import Collection, DatabaseInfo, Snapshot
    from bench.fleet_data import fleet_segment_stats, to_segment_stat

    n_segments = target.segments.count()
    snap_id = last_full_snap_id(end)
    stats = tuple(to_segment_stat(row)[1] for row in fleet_segment_stats(n_segments, 1, 11, first_snap_id=snap_id))
    snapshot = Snapshot(dbid=98, instance_number=1, snap_id=snap_id, begin_at=end - dt.timedelta(hours=1), end_at=end,
                        startup_at=end - dt.timedelta(days=60), segment_stats=stats, top_n_only=False)
    collection = Collection(database=DatabaseInfo(dbid=98, db_name="BIG", release="19.0.0.0.0", is_rac=False,
                                                  instances=(1,)), snapshots=(snapshot,), collected_at=end)
    day = end.astimezone(dt.timezone.utc).date()
    saved_day = RollupDay.objects.filter(target=target, day=day).first()
    saved_bases = list(WindowBase.objects.filter(target=target))
    if prepared != "whole" and saved_bases:
        later = WindowBase.objects.filter(target=target, first_day__gt=min(b.first_day for b in saved_bases))
        (later if prepared == "none" else later.filter(last_day=max(b.last_day for b in saved_bases))).delete()
    roll_up = figures.segment_days_roll_up
    roll_up_s = []

    def timed_roll_up(**kwargs):
        changed, seconds = _timed(lambda: roll_up(**kwargs))
        roll_up_s.append(seconds)
        return changed

    try:
        _, ingest_s = _timed(lambda: collection_store(
            target=target, collection=collection, kind="demo",
            state=CollectState(now=end, history_start_at=end - dt.timedelta(hours=2))))
        # The refresh's roll-up, timed where the refresh calls it.
        with mock.patch.object(figures, "segment_days_roll_up", timed_roll_up):
            refresh_s = _refresh(target, end)
    finally:
        SnapshotModel.objects.filter(target=target, end_at=end).delete()
        if saved_day:
            saved_day.save()
        else:
            RollupDay.objects.filter(target=target, day=day).delete()
        WindowBase.objects.filter(target=target).delete()
        WindowBase.objects.bulk_create(saved_bases)
        # The delete's trigger marked the day's other snapshots for a new roll-up; the day is put back whole.
        SnapshotModel.objects.filter(target=target, end_at__date=day).update(rolled_up=True)
    return {"ingest_s": round(ingest_s, 3), "refresh_s": round(refresh_s, 3), "roll_up_s": sum(roll_up_s)}


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
