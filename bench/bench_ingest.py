"""The ingest ratio of `make bench`: our collection path (segment upsert, whole-snapshot transactions, COPY)
against a raw COPY of the same segment-stat rows into the same table, best of three each. Runs in the
``..._bench_ingest`` database (its runs truncate the statistics table). Split from bench/run.py.
"""

from __future__ import annotations

import datetime as dt

from bench.bench_recommendations import timed
from bench.setup_data import fresh_target


def bench_ingest(n_segments: int = 2_000, n_hours: int = 168) -> dict:  # noqa: C901
    """Our ingest path vs raw COPY of the same rows into the same table."""
    from django.db import connection, transaction

    from apps.snapshots.services import collection_store
    from apps.snapshots.store import SEGMENT_STAT_COLUMNS
    from apps.targets.base import CollectState
    from bench.fleet_collection import fleet_collection

    collection = fleet_collection(n_segments, n_hours, seed=7)
    target = fresh_target("bench-ingest")
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
