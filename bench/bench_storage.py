"""Storage benches: bytes per million segment-stat rows, table sizes after a simulated week of hourly
collections, and retention by dropping partitions next to deleting the same rows.

Runnable alone at small scale (a database <name>_bench_storage beside DATABASE_URL's):
    .venv/bin/python bench/bench_storage.py [n_segments] [days]
The simulated data is dated in 2001 so that it shares no day (no partition) with other bench targets.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import inspect
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

#: The simulated week is moved back this far: days (partitions) of its own, never another target's.
_SHIFT_TO = dt.datetime(2001, 1, 1, tzinfo=dt.UTC)


def _relation_sizes() -> dict[str, int]:
    """pg_total_relation_size (heap, indexes and TOAST) of the rollup tables (the days, the parts of days still
    going on, the window bases) and of every segment-stat partition."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT coalesce(sum(pg_total_relation_size(i.inhrelid)), 0) FROM pg_inherits i "
                       "WHERE i.inhparent = 'snapshots_segmentstat'::regclass")
        sizes = {"segmentstat_bytes": int(cursor.fetchone()[0])}
        for table in _BLOB_TABLES:
            cursor.execute("SELECT pg_total_relation_size(%s::regclass)", [table])
            sizes[f"{table.removeprefix('snapshots_')}_bytes"] = int(cursor.fetchone()[0])
    return sizes


def _blob_table_writes() -> dict[str, int]:
    """Per blob table, the rows and TOAST chunks (~2 kB each) inserted and deleted so far (pg_stat_all_tables:
    an update counts as a delete and an insert of its chunks), this backend's counts flushed first."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_force_next_flush()")
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute(
            "SELECT c.relname, s.n_tup_ins + s.n_tup_upd, s.n_tup_upd + s.n_tup_del, t.n_tup_ins, t.n_tup_del "
            "FROM pg_class c JOIN pg_stat_all_tables s ON s.relid = c.oid "
            "LEFT JOIN pg_stat_all_tables t ON t.relid = c.reltoastrelid "
            "WHERE c.relname = ANY(%s) AND c.relnamespace = to_regnamespace(current_schema())::oid",
            [list(_BLOB_TABLES)])
        counts = {}
        for table, written, dead, chunks_in, chunks_out in cursor.fetchall():
            name = table.removeprefix("snapshots_")
            counts.update({f"{name}_rows_written": written, f"{name}_rows_dead": dead,
                           f"{name}_toast_chunks_written": chunks_in or 0, f"{name}_toast_chunks_dead": chunks_out or 0})
    return counts


def _week(n_segments: int, days: int):
    from bench.fleet_collection import fleet_collection

    collection = fleet_collection(n_segments, 24 * days, seed=13)
    shift = collection.snapshots[0].begin_at - _SHIFT_TO
    snapshots = tuple(dataclasses.replace(s, begin_at=s.begin_at - shift, end_at=s.end_at - shift,
                                          startup_at=s.startup_at - shift) for s in collection.snapshots)
    return dataclasses.replace(collection, snapshots=snapshots, collected_at=snapshots[-1].end_at)


def _simulate_week(target, collection) -> None:
    """Store the collection one hour at a time, each followed by its roll-up and a 7-day window, as a live
    target's hourly collections and refreshes would."""
    from apps.snapshots.services import collection_store
    from apps.snapshots.windows import window_figures
    from apps.targets.base import CollectState

    for snap in collection.snapshots:
        hour = dataclasses.replace(collection, snapshots=(snap,), collected_at=snap.end_at)
        collection_store(target=target, collection=hour, kind="demo",
                         state=CollectState(now=snap.end_at, history_start_at=snap.end_at - dt.timedelta(days=8)))
        _roll_up(target.id, snap.end_at)
        window_figures(target_id=target.id, last_day=snap.end_at.date(), days=7)


#: Bytes of the rollup blobs the roll-ups wrote (counted where they write them, apps.snapshots.rollups).
_written = {"rollup_blob_bytes_written": 0}


def _roll_up(target_id: int, now: dt.datetime) -> None:
    """The roll-up of a collection at ``now``, counting the blob bytes it writes."""
    from unittest import mock

    from apps.core import pgcopy
    from apps.snapshots import rollups

    def counted(cursor, sql, params):
        _written["rollup_blob_bytes_written"] += sum(len(p) for p in params if isinstance(p, bytes | memoryview))
        return pgcopy.execute_binary(cursor, sql, params)

    with mock.patch.object(rollups, "execute_binary", counted):
        if "now" in inspect.signature(rollups.segment_days_roll_up).parameters:
            rollups.segment_days_roll_up(target_id=target_id, now=now)
        else:  # a roll-up that takes the wall clock's day for the day still growing
            rollups.segment_days_roll_up(target_id=target_id)


_BLOB_TABLES = ("snapshots_rollupday", "snapshots_rolluphour", "snapshots_windowbase")
_VACUUM_OPTIONS = ("autovacuum_vacuum_scale_factor", "autovacuum_vacuum_threshold",
                   "toast.autovacuum_vacuum_scale_factor", "toast.autovacuum_vacuum_threshold")


def _blob_vacuum_default(default: bool) -> None:
    """Reset the blob tables' autovacuum settings to PostgreSQL's defaults (to measure the churn without them),
    or set them back as the snapshots migration sets them."""
    from django.db import connection

    with connection.cursor() as cursor:
        for table in _BLOB_TABLES:
            if default:
                cursor.execute(f"ALTER TABLE {table} RESET ({', '.join(_VACUUM_OPTIONS)})")
            else:
                cursor.execute(f"ALTER TABLE {table} SET ({', '.join(f'{o} = 0' if 'scale' in o else f'{o} = 200' for o in _VACUUM_OPTIONS)})")


def bench_storage(target_ids=None, *, n_segments: int = 2_000, days: int = 7, vacuum_default: bool = False) -> dict:
    """Sizes of the raw statistics and the rollup tables.

    Without ``target_ids``: simulates ``days`` of hourly collections of ``n_segments`` segments on a fresh
    target first (then drops it) and gives how much each table grew meanwhile. With them: measures the database as it is. ``vacuum_default``: run the
    simulation with PostgreSQL's default autovacuum settings on the blob tables (the churn before tuning).
    """
    from django.db import connection

    from apps.snapshots.models import SegmentStat
    from bench.setup_data import drop_target as _drop_target
    from bench.setup_data import fresh_target as _fresh_target

    target = None
    if target_ids is None:
        _simulated_days_drop()
        target = _fresh_target("bench-storage")
        before = _relation_sizes()
        writes_before = _blob_table_writes()
        _written["rollup_blob_bytes_written"] = 0
        _blob_vacuum_default(vacuum_default)
        try:
            _simulate_week(target, _week(n_segments, days))
        finally:
            _blob_vacuum_default(False)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE snapshots_segmentstat")
    rows = SegmentStat.objects.count()
    sizes = _relation_sizes()
    result = {"segment_stat_rows": rows, **sizes,
              "pg_bytes_per_million_rows": round(sizes["segmentstat_bytes"] / rows * 1e6) if rows else None}
    if target is not None:
        result.update({f"{name.removesuffix('_bytes')}_growth_bytes": sizes[name] - before[name] for name in sizes})
        writes = _blob_table_writes()
        result.update({name: writes[name] - writes_before.get(name, 0) for name in writes}, **_written)
        result.update(simulated_segments=n_segments, simulated_hours=24 * days,
                      blob_autovacuum="postgresql default" if vacuum_default else "tuned (snapshots migration)")
        _drop_target(target)
        _simulated_days_drop()
    return result


def _simulated_days_drop() -> None:
    """Drop the partitions of the simulated days (dated 2001: no other target has rows there)."""
    from apps.snapshots import partitions

    partitions.partitions_drop(day for day in partitions.partition_days() if day.year == _SHIFT_TO.year)


def bench_retention_drop(*, n_segments: int = 2_000, days: int = 7) -> dict:
    """One prune that drops the first day of a simulated fleet week (partition drop) next to a row DELETE of
    the same day's rows (the previous retention), each on a fresh load of the same data."""
    from django.db import transaction

    from apps.snapshots import partitions
    from apps.snapshots.models import SegmentStat, Snapshot
    from apps.snapshots.services import collection_store
    from apps.targets.base import CollectState
    from bench.bench_recommendations import timed
    from bench.setup_data import drop_target as _drop_target
    from bench.setup_data import fresh_target as _fresh_target

    collection = _week(n_segments, days)
    first_day_end = dt.datetime.combine(_SHIFT_TO.date() + dt.timedelta(days=1), dt.time(), dt.UTC)

    def load():
        target = _fresh_target("bench-retention")
        collection_store(target=target, collection=collection, kind="demo",
                         state=CollectState(now=collection.collected_at,
                                            history_start_at=collection.snapshots[0].begin_at))
        return target

    target = load()
    rows = SegmentStat.objects.filter(snapshot__target=target, end_at__lt=first_day_end).count()

    def drop() -> int:  # snapshot_prune's steps, for this target's horizon only (others' days are kept)
        horizons = {target.id: first_day_end}
        deleted = partitions.partitions_drop(partitions.partitions_droppable(horizons=horizons))
        return deleted + Snapshot.objects.filter(target=target, end_at__lt=first_day_end).delete()[0]

    _, drop_s = timed(drop)
    dropped = not any(day < first_day_end.date() for day in partitions.partition_days()
                      if day >= _SHIFT_TO.date())
    _drop_target(target)

    target = load()

    def delete() -> None:
        with transaction.atomic():
            Snapshot.objects.filter(target=target, end_at__lt=first_day_end).delete()

    _, delete_s = timed(delete)
    _drop_target(target)
    return {"rows_dropped": rows, "partition_dropped": dropped, "retention_drop_seconds": round(drop_s, 3),
            "row_delete_seconds": round(delete_s, 3)}


if __name__ == "__main__":
    from django.core.management import call_command

    from bench.setup_data import setup_django as _setup_django

    _setup_django("_bench_storage")
    call_command("bootstrap")  # the seed tier sets the bench targets use
    segments = int(sys.argv[1]) if len(sys.argv) > 1 else 2_000
    week_days = int(sys.argv[2]) if len(sys.argv) > 2 else 7
    print(json.dumps({"storage_vacuum_default": bench_storage(n_segments=segments, days=week_days,
                                                              vacuum_default=True),
                      "storage": bench_storage(n_segments=segments, days=week_days),
                      "retention": bench_retention_drop(n_segments=segments, days=week_days)}, indent=2))
