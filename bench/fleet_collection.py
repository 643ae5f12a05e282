"""bench/fleet_data.py's synthetic fleet as the collection path takes it: DBA_SEGMENTS rows and a Collection
(apps.targets.rows), for the ingest and refresh benches of bench/run.py. Needs Django set up.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict


def fleet_infos(n_segments: int, seed: int) -> tuple:
    """The generator's segments as DBA_SEGMENTS rows (SegmentInfo)."""
    from apps.targets.rows import SegmentInfo, SegmentKey
    from bench.fleet_data import fleet_segments

    return tuple(
        SegmentInfo(key=SegmentKey(o, n, s, t), tablespace_name=ts, bytes=b, blocks=bl, obj_number=obj,
                    dataobj_number=dobj)
        for o, n, s, t, ts, b, bl, obj, dobj in fleet_segments(n_segments, seed)
    )


def fleet_collection(n_segments: int, n_hours: int, seed: int):
    """A collection of the generator's segments and their hourly statistics, as a source hands it over."""
    from apps.targets.demo.schema import snap_end_at
    from apps.targets.rows import Collection, DatabaseInfo, Snapshot
    from bench.fleet_data import fleet_segment_stats, to_segment_stat

    by_snap = defaultdict(list)
    for row in fleet_segment_stats(n_segments, n_hours, seed):
        snap_id, stat = to_segment_stat(row)
        by_snap[snap_id].append(stat)
    startup = snap_end_at(min(by_snap)) - dt.timedelta(days=30)
    snapshots = tuple(
        Snapshot(dbid=99, instance_number=1, snap_id=snap_id, begin_at=snap_end_at(snap_id) - dt.timedelta(hours=1),
                 end_at=snap_end_at(snap_id), startup_at=startup, segment_stats=tuple(stats), top_n_only=False)
        for snap_id, stats in sorted(by_snap.items())
    )
    segments = fleet_infos(n_segments, seed)
    database = DatabaseInfo(dbid=99, db_name="BENCH", release="19.0.0.0.0", is_rac=False, instances=(1,))
    return Collection(database=database, snapshots=snapshots, segments=segments, collected_at=snapshots[-1].end_at)
