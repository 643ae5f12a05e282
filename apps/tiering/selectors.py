"""Reads for recommendations: per-segment figures over a window, computed in SQL."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.db import connection

from apps.snapshots.models import TablespaceIO
from apps.tiering.models import Recommendation

STATISTICS = ("p95", "avg", "max")


@dataclass(frozen=True)
class WindowFigures:
    """One segment's activity over the window (requests, blocks; IOPS by the chosen statistic)."""

    segment_id: int
    iops: float
    read_iops: float
    write_iops: float
    read_requests: int
    write_requests: int
    physical_reads_blocks: int
    physical_reads_direct_blocks: int
    optimized_physical_reads: int
    table_scans: int
    db_block_changes: int
    logical_reads: int
    covered_s: float
    intervals: int
    from_samples: bool


_AGG = {"p95": "percentile_disc(0.95) WITHIN GROUP (ORDER BY {col})", "avg": "avg({col})", "max": "max({col})"}

# Per snapshot first (RAC: the instances of one snap_id are summed), then per
# segment over the window. A segment is measured from AWR/demo/report
# snapshots when it has any in the window; segments below AWR's capture fall
# back to the deltas of V$ samples (kind 'sample'), never to both.
_WINDOW_SQL = """
WITH per_snap AS (
  SELECT st.segment_id, sn.kind, sn.snap_id, max(st.interval_s) AS interval_s,
         sum(coalesce(st.physical_read_requests, 0)) AS rr, sum(coalesce(st.physical_write_requests, 0)) AS wr,
         sum(coalesce(st.physical_reads_blocks, 0)) AS rb, sum(coalesce(st.physical_reads_direct_blocks, 0)) AS drb,
         sum(coalesce(st.optimized_physical_reads, 0)) AS opt, sum(coalesce(st.table_scans, 0)) AS ts,
         sum(coalesce(st.db_block_changes, 0)) AS bc, sum(coalesce(st.logical_reads, 0)) AS lr
  FROM snapshots_segmentstat st JOIN snapshots_snapshot sn ON sn.id = st.snapshot_id
  WHERE sn.target_id = %(target_id)s AND sn.end_at > %(since)s AND sn.end_at <= %(until)s AND st.interval_s > 0
  GROUP BY st.segment_id, sn.kind, sn.snap_id
), rated AS (
  SELECT *, (rr + wr) / interval_s AS iops, rr / interval_s AS riops, wr / interval_s AS wiops,
         bool_and(kind = 'sample') OVER (PARTITION BY segment_id) AS only_samples
  FROM per_snap
)
SELECT segment_id, {iops}, {riops}, {wiops}, sum(rr), sum(wr), sum(rb), sum(drb), sum(opt), sum(ts), sum(bc), sum(lr),
       sum(interval_s), count(*), bool_and(only_samples)
FROM rated WHERE (kind = 'sample') = only_samples
GROUP BY segment_id
"""


def segment_window_figures(
    *, target_id: int, since: dt.datetime, until: dt.datetime, statistic: str = "p95"
) -> dict[int, WindowFigures]:
    if statistic not in _AGG:
        raise ValueError(f"statistic must be one of {', '.join(STATISTICS)}, not {statistic!r}")
    agg = _AGG[statistic]
    sql = _WINDOW_SQL.format(iops=agg.format(col="iops"), riops=agg.format(col="riops"), wiops=agg.format(col="wiops"))
    with connection.cursor() as cursor:
        cursor.execute(sql, {"target_id": target_id, "since": since, "until": until})
        rows = cursor.fetchall()
    return {
        row[0]: WindowFigures(
            segment_id=row[0], iops=float(row[1]), read_iops=float(row[2]), write_iops=float(row[3]),
            read_requests=int(row[4]), write_requests=int(row[5]), physical_reads_blocks=int(row[6]),
            physical_reads_direct_blocks=int(row[7]), optimized_physical_reads=int(row[8]), table_scans=int(row[9]),
            db_block_changes=int(row[10]), logical_reads=int(row[11]), covered_s=float(row[12]), intervals=int(row[13]),
            from_samples=bool(row[14]),
        )
        for row in rows
    }


def tablespace_read_latency_ms(*, target_id: int, since: dt.datetime, until: dt.datetime) -> dict[str, float]:
    """Average read latency per tablespace over the window, where the source collected it."""
    from django.db.models import Sum

    rows = (
        TablespaceIO.objects.filter(
            snapshot__target_id=target_id, snapshot__end_at__gt=since, snapshot__end_at__lte=until,
            read_time_ms__isnull=False,
        )
        .values("tablespace_name")
        .annotate(reads=Sum("read_requests"), time_ms=Sum("read_time_ms"))
        .order_by()
    )
    return {r["tablespace_name"]: r["time_ms"] / r["reads"] for r in rows if r["reads"]}


def recommendation_list(*, target_id: int):
    """Current recommendations of a target with their segment and tiers (one query)."""
    return (
        Recommendation.objects.filter(target_id=target_id, is_current=True)
        .select_related("segment", "current_tier", "recommended_tier")
        .order_by("-savings_usd", "segment__owner", "segment__object_name", "segment__subobject_name")
    )
