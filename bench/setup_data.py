"""The bench's databases and its large data set: ``<DATABASE_URL's name>_bench`` (and ``..._bench_ingest`` for
the runs that truncate or prune), created and migrated here; the 100k-segment target loaded once by raw COPY and
reused by later runs. Split from bench/run.py by concern.
"""

from __future__ import annotations

import datetime as dt
import os

from bench.bench_recommendations import timed


def setup_django(database_suffix: str = "_bench") -> None:
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
    from config.gc_tuning import web_worker_gc

    web_worker_gc()  # the pages measured as config/wsgi.py serves them


def _create_database(url: str, name: str) -> None:
    import psycopg

    admin_url = url.rpartition("/")[0] + "/postgres"
    with psycopg.connect(admin_url, autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            conn.execute(f'CREATE DATABASE "{name}"')


#: The tablespaces of the large target (tablespace, seed tier), and of the synthetic targets whose
#: recommendations move segments (bench/bench_plan.py, bench/bench_export.py).
LARGE_TABLESPACES = (("DATA01", "fast disk"), ("DATA02", "fast disk"), ("DATA03", "hi-cap disk"),
                     ("DATA04", "fast disk"), ("INDX01", "fast disk"), ("INDX02", "fast disk"),
                     ("HIST01", "hi-cap disk"), ("FLASH01", "flash"))
MOVE_TABLESPACES = (("DATA01", "fast disk"), ("HIST01", "hi-cap disk"), ("FLASH01", "flash"))


def fresh_target(name: str, tablespaces: tuple[tuple[str, str], ...] = LARGE_TABLESPACES, **fields):
    """A new demo target named ``name`` (one of that name deleted first) on the seed's tiers, its
    ``tablespaces`` mapped to their tiers; ``fields``: more of its fields (``capabilities``)."""
    from apps.targets.models import TablespaceTier, Target

    Target.objects.filter(name=name).delete()
    target = Target.objects.create(name=name, mode=Target.Mode.DEMO, enabled=False, tier_set_id="seed-2009", **fields)
    tiers = seed_tiers()
    for tablespace, tier in tablespaces:
        TablespaceTier.objects.create(target=target, tablespace_name=tablespace, tier=tiers[tier])
    return target


def seed_tiers() -> dict:
    """The seed's tiers by name."""
    from apps.tiering.models import Tier

    return {t.name: t for t in Tier.objects.filter(tier_set="seed-2009")}


def synthetic_segments(target, count: int, *, kinds, per_table: int, digits: int, tablespaces, now) -> list:
    """``count`` segments of ``target``, stored: of ``kinds`` ((object type, subobject name format) in turn), each
    ``per_table`` in a row of table T<n> (n ``digits`` wide; its index <table>_IX, its partitioned index
    <table>_PIX, LOB number i SYS_LOB<i>C00002$$ of its column BODY), owned by APP0 to APP6, in ``tablespaces``
    in turn, 128 MiB to 6.25 GiB."""
    from apps.snapshots.models import Segment

    segments = []
    for i in range(count):
        kind, sub = kinds[i % len(kinds)]
        table = f"T{i // per_table:0{digits}d}"
        object_name = {"INDEX": f"{table}_IX", "INDEX PARTITION": f"{table}_PIX",
                       "LOBSEGMENT": f"SYS_LOB{i:010d}C00002$$"}.get(kind, table)
        segments.append(Segment(
            target=target, owner=f"APP{i % 7}", object_name=object_name, object_type=kind,
            subobject_name=sub.format(i), tablespace_name=tablespaces[i % len(tablespaces)],
            partitioned_parent=table if kind == "LOBSEGMENT" else "", lob_column="BODY" if kind == "LOBSEGMENT" else "",
            size_bytes=(i % 50 + 1) * 2**27, first_seen_at=now, last_seen_at=now))
    return Segment.objects.bulk_create(segments, batch_size=5000)


def _load_large(target, n_segments: int, n_hours: int) -> None:
    """Bulk-load the data set with raw binary COPY, then build its daily rollups (ingest is measured apart)."""
    from django.db import connection

    from apps.core.time import utc_day
    from apps.snapshots.models import Segment, SegmentStat, Snapshot
    from apps.snapshots.partitions import partitions_ensure
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
    # The days' partitions first, as the store makes them: rows COPYed into the default partition would wait
    # there for the periodic task to move them.
    partitions_ensure(utc_day(end) for end in ends.values())
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
        drop_target(existing)
    target = fresh_target(name)
    print(f"loading {n_segments:,} segments x {n_hours} hours (once; reused by later runs) ...", flush=True)
    _, load_s = timed(lambda: _load_large(target, n_segments, n_hours))
    print(f"  loaded in {load_s:.0f} s", flush=True)
    return target


def drop_target(target) -> None:
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
