"""The PostgreSQL statements of the snapshots app: segments, snapshots, partitions, rollups and windows.

Composed with psycopg.sql as apps.core.sql says: table names from the models, column lists as identifiers,
values bound. The comments say why a statement is written as it is (its plan); the modules that run them
say when.
"""

from __future__ import annotations

from collections.abc import Sequence

from psycopg import sql

from apps.core.sql import names, statement, table
from apps.snapshots.models import RollupDay, RollupHour, Segment, SegmentStat, Snapshot, WindowBase
from apps.snapshots.segment_rows import SegmentRow

#: The tables by the names the statements below give them.
TABLES = {"segment": table(Segment), "snapshot": table(Snapshot), "segmentstat": table(SegmentStat),
          "rollupday": table(RollupDay), "rolluphour": table(RollupHour), "windowbase": table(WindowBase)}


def _sql(text: str, /, **parts: sql.Composable) -> sql.Composed:
    return statement(text, **TABLES, **parts)


# --------------------------------------------------------------------------- the current database

#: The database a target's windows show: the DBID of its latest snapshot (the one stored last on a tie).
#: snapshot_target_end_idx reads it backwards. ``target``: the placeholder of the target's id.
def current_dbid(target: sql.Placeholder) -> sql.Composed:
    return _sql("SELECT dbid FROM {snapshot} WHERE target_id = {target} ORDER BY end_at DESC, id DESC LIMIT 1",
                target=target)


CURRENT_DBID = current_dbid(sql.Placeholder())

# --------------------------------------------------------------------------- counters (apps.snapshots.activity)

#: Each counter of activity.COUNTERS as the SQL expression over one segment-stat row ``st`` it sums: a count
#: not measured adds 0 to its counter and 1 to its "unmeasured" one, so a sum is a lower bound that says so.
COUNTER_SQL = {
    "read_requests": sql.SQL("coalesce(st.physical_read_requests, 0)"),
    "write_requests": sql.SQL("coalesce(st.physical_write_requests, 0)"),
    **{name: sql.SQL("coalesce({}, 0)").format(sql.Identifier("st", name)) for name in (
        "physical_reads_blocks", "physical_reads_direct_blocks", "optimized_physical_reads", "table_scans",
        "db_block_changes", "logical_reads")},
    "reads_unmeasured": sql.SQL("(st.physical_read_requests IS NULL)::int"),
    "writes_unmeasured": sql.SQL("(st.physical_write_requests IS NULL)::int"),
    "read_requests_bound": sql.SQL("CASE WHEN st.physical_read_requests IS NULL "
                                   "THEN coalesce(st.read_requests_bound, 0) ELSE 0 END"),
    "write_requests_bound": sql.SQL("CASE WHEN st.physical_write_requests IS NULL "
                                    "THEN coalesce(st.write_requests_bound, 0) ELSE 0 END"),
    "reads_unbounded": sql.SQL("(st.physical_read_requests IS NULL AND st.read_requests_bound IS NULL)::int"),
    "writes_unbounded": sql.SQL("(st.physical_write_requests IS NULL AND st.write_requests_bound IS NULL)::int"),
}


def per_snapshot(counters: Sequence[str]) -> sql.Composed:
    """One row per segment and instance snapshot of the ids given (``%s``), ending in [``%s``, ``%s``): its id,
    snapshot, ``counters`` and interval. The bounds of the snapshots' UTC day prune the read to that day's
    partition (without them every day's partition is probed and locked, and a roll-up waits for a retention
    that drops another day)."""
    return _sql("""
SELECT st.segment_id::int8, st.snapshot_id::int8, {counters}, st.interval_s::float8
FROM {segmentstat} st
WHERE st.snapshot_id = ANY(%s) AND st.end_at >= %s AND st.end_at < %s AND st.interval_s > 0
""", counters=sql.SQL(", ").join(sql.SQL("({})::int8").format(COUNTER_SQL[name]) for name in counters))


# --------------------------------------------------------------------------- rollups (apps.snapshots.rollups)

ROLLUP_PENDING = _sql("SELECT id, kind, dbid, snap_id, end_at FROM {snapshot} "
                      "WHERE target_id = %s AND NOT rolled_up FOR UPDATE SKIP LOCKED")
ROLLUP_DAYS_DBID_SET = _sql("UPDATE {rollupday} SET dbid = %s WHERE target_id = %s AND day = ANY(%s) "
                            "AND dbid IS DISTINCT FROM %s")
SNAPSHOTS_ROLLED_UP = _sql("UPDATE {snapshot} SET rolled_up = true WHERE id = ANY(%s)")
ROLLUPS_DBID = _sql("(SELECT dbid FROM {rollupday} WHERE target_id = %s LIMIT 1) UNION ALL "
                    "(SELECT dbid FROM {rolluphour} WHERE target_id = %s LIMIT 1) LIMIT 1")
ROLLED_UP_EXISTS = _sql("SELECT EXISTS (SELECT FROM {snapshot} WHERE target_id = %s AND dbid = %s AND rolled_up)")
ROLLUP_DAYS_DELETE = _sql("DELETE FROM {rollupday} WHERE target_id = %s RETURNING day")
ROLLUP_PARTS_DELETE = _sql("DELETE FROM {rolluphour} WHERE target_id = %s RETURNING day")
WINDOW_BASES_DELETE = _sql("DELETE FROM {windowbase} WHERE target_id = %s")
SNAPSHOTS_ROLL_UP_AGAIN = _sql("UPDATE {snapshot} SET rolled_up = false WHERE target_id = %s AND dbid = %s "
                               "AND rolled_up")
# Probes the natural key's index (target, dbid, ...) for the few snapshots of a roll-up.
LATE_INSTANCE_DAYS = _sql("""
SELECT DISTINCT (p.end_at AT TIME ZONE 'UTC')::date FROM {snapshot} p
WHERE p.id = ANY(%s) AND EXISTS (
  SELECT FROM {snapshot} r
  WHERE r.target_id = %s AND r.dbid = p.dbid AND r.kind = p.kind AND r.snap_id = p.snap_id AND r.rolled_up
    AND (r.end_at AT TIME ZONE 'UTC')::date = (p.end_at AT TIME ZONE 'UTC')::date)
""")
DAY_SNAPSHOTS = _sql("SELECT id, kind, snap_id FROM {snapshot} WHERE target_id = %s AND dbid = %s "
                     "AND end_at >= %s AND end_at < %s")
DAY_WRITE = _sql(
    "INSERT INTO {rollupday} (target_id, day, dbid, version, rows, width, data) "
    "VALUES (%s, %s, %s, coalesce(%s::int8, nextval('snapshots_rollup_version')), %s, %s, %s) "
    "ON CONFLICT (target_id, day) DO UPDATE SET dbid = coalesce(excluded.dbid, {rollupday}.dbid), "
    "version = excluded.version, rows = excluded.rows, width = excluded.width, data = excluded.data")
DAY_PARTS_DELETE = _sql("DELETE FROM {rolluphour} WHERE target_id = %s AND day = %s")
PART_WRITE = _sql("INSERT INTO {rolluphour} (target_id, day, version, dbid, roll_ups, rows, width, data) "
                  "VALUES (%s, %s, nextval('snapshots_rollup_version'), %s, %s, %s, %s, %s)")
PART_DAYS_BEFORE = _sql("SELECT DISTINCT day FROM {rolluphour} WHERE target_id = %s AND day < %s ORDER BY 1")
# A day's RollupDay and parts in one statement, so a roll-up committing meanwhile (which merges the parts
# into the RollupDay) is seen whole or not at all.
DAY_STORED = _sql("""
SELECT false AS part, version, dbid, 0 AS roll_ups, rows, width, data FROM {rollupday}
 WHERE target_id = %(target)s AND day = %(day)s
UNION ALL
SELECT true, version, dbid, roll_ups, rows, width, data FROM {rolluphour}
 WHERE target_id = %(target)s AND day = %(day)s
ORDER BY 1, 2
""")


def day_versions(*, from_first_day: bool) -> sql.Composed:
    """Each day's highest version, of the target (``%s``) up to a last day (``%s``), from a first day (``%s``)
    when ``from_first_day``: the parameters come twice."""
    bounds = sql.SQL("target_id = %s AND day <= %s" + (" AND day >= %s" if from_first_day else ""))
    return _sql("SELECT day, max(version) FROM (SELECT day, version FROM {rollupday} WHERE {bounds} "
                "UNION ALL SELECT day, version FROM {rolluphour} WHERE {bounds}) v GROUP BY day", bounds=bounds)


def data_of(model: type) -> sql.Composed:
    """The ``data`` column (a rollup's blob) of the row of ``model``'s table (RollupDay, RollupHour, WindowBase)
    with the id ``%s``."""
    return _sql("SELECT data FROM {table} WHERE id = %s", table=table(model))


# --------------------------------------------------------------------------- windows (apps.snapshots.windows)

SNAPSHOTS_BETWEEN = _sql("SELECT count(DISTINCT (kind, snap_id)) FROM {snapshot} "
                         "WHERE target_id = %s AND (top_n_only OR NOT %s) AND end_at >= %s AND end_at < %s "
                         "AND dbid = ({current_dbid})", current_dbid=CURRENT_DBID)
WINDOW_BASE_STORE = _sql(
    "INSERT INTO {windowbase} (target_id, first_day, last_day, version, ranks, built_at, rows, "
    "width, data) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s) "
    "ON CONFLICT (target_id, first_day, last_day) DO UPDATE SET version = excluded.version, "
    "ranks = excluded.ranks, "
    "built_at = excluded.built_at, rows = excluded.rows, width = excluded.width, data = excluded.data")

# n_all: the values a statistic is over, the window's top-N snapshots that did not capture the segment
# included (see windows.window_figures); the p95 is the k-th largest, k = p95_rank(n_all), NULL when beyond
# the values captured (a gap).
_N_ALL = "(CASE WHEN bool_and(from_samples) THEN count(*) ELSE greatest(count(*), %(top_n)s) END)"
_AGG = {
    "p95": sql.SQL(f"(array_agg(iops ORDER BY iops DESC))[{_N_ALL} - ceil(0.95 * {_N_ALL})::int8 + 1]"),
    "avg": sql.SQL(f"sum(iops) / {_N_ALL}"),
    "max": sql.SQL("max(iops)"),
}
_GAPS = {"p95": sql.SQL(f"{_N_ALL} - ceil(0.95 * {_N_ALL})::int8 + 1 > count(*)"),
         "avg": sql.SQL(f"{_N_ALL} > count(*)"), "max": sql.SQL("false")}


def raw_window(statistic: str, counters: Sequence[str]) -> sql.Composed:
    """A window's figures from every raw statistic of it (windows.raw_figures): per segment whether samples
    alone measured it, ``counters`` summed, the seconds covered, the intervals, the IOPS summed, ``statistic``'s
    figure (p95, avg or max) and whether it fell in a gap."""
    if statistic not in _AGG:
        raise ValueError(f"raw_window: no statistic {statistic!r} ({', '.join(_AGG)})")
    return _sql("""
WITH per_snap AS (
  SELECT st.segment_id, (sn.end_at AT TIME ZONE 'UTC')::date AS day, sn.kind = 'sample' AS from_samples,
         max(st.interval_s) AS interval_s,
         {sums}
  FROM {segmentstat} st JOIN {snapshot} sn ON sn.id = st.snapshot_id
  WHERE sn.target_id = %(target)s AND sn.end_at >= %(start)s AND sn.end_at < %(end)s AND st.interval_s > 0
    AND st.end_at >= %(start)s AND st.end_at < %(end)s AND sn.dbid = ({current_dbid})
    AND (%(ids)s::int8[] IS NULL OR st.segment_id = ANY(%(ids)s::int8[]))
  GROUP BY st.segment_id, 2, sn.kind, sn.dbid, sn.snap_id
), chosen AS (
  SELECT *, (read_requests + write_requests) / interval_s AS iops,
         bool_and(from_samples) OVER (PARTITION BY segment_id, day) AS only_samples
  FROM per_snap
)
SELECT segment_id::int8, bool_and(from_samples), {totals}, sum(interval_s)::float8, count(*)::int8,
       sum(iops)::float8, coalesce(({agg})::float8, 0), {gaps}
FROM chosen WHERE from_samples = only_samples GROUP BY segment_id
""", sums=sql.SQL(", ").join(sql.SQL("sum({}) AS {}").format(COUNTER_SQL[c], sql.Identifier(c)) for c in counters),
                totals=sql.SQL(", ").join(sql.SQL("sum({})::int8").format(sql.Identifier(c)) for c in counters),
                agg=_AGG[statistic], gaps=_GAPS[statistic], current_dbid=current_dbid(sql.Placeholder("target")))


# --------------------------------------------------------------------------- coverage (selectors, figures)

# The intervals of the target's current database that end in the window's days, the instances of one (kind,
# snap_id) one interval. V$ samples measure the same time as the AWR snapshots beside them and fill their
# gaps: they count only where nothing else does.
COVERAGE = _sql("""
WITH intervals AS (
  SELECT kind, min(begin_at) AS begin_at, max(end_at) AS end_at
  FROM {snapshot}
  WHERE target_id = %(target)s AND end_at >= %(start)s AND end_at < %(stop)s
    AND dbid = ({current_dbid})
  GROUP BY kind, snap_id
), counted AS (
  SELECT * FROM intervals
  WHERE kind <> 'sample' OR NOT EXISTS (SELECT 1 FROM intervals WHERE kind <> 'sample')
)
SELECT count(*), min(begin_at), max(end_at),
       percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM end_at - begin_at))
FROM counted
""", current_dbid=current_dbid(sql.Placeholder("target")))

INCOMPLETE = _sql("""
SELECT snap_id, max(end_at), array_agg(DISTINCT instance_number ORDER BY instance_number), max(database_instances)
FROM {snapshot}
WHERE target_id = %(target)s
  AND dbid = ({current_dbid})
  AND (%(start)s::timestamptz IS NULL OR end_at >= %(start)s) AND (%(stop)s::timestamptz IS NULL OR end_at < %(stop)s)
  AND (%(snap_ids)s::bigint[] IS NULL OR snap_id = ANY(%(snap_ids)s::bigint[]))
GROUP BY kind, snap_id
HAVING NOT bool_or(instance_number = 0) AND count(DISTINCT instance_number) < max(database_instances)
ORDER BY max(end_at) DESC
LIMIT %(limit)s
""", current_dbid=current_dbid(sql.Placeholder("target")))

# Per snapshot (its RAC instances summed, over the longest of their intervals): the bound on the requests
# of a segment it lists nowhere, NULL when an instance gave none; and whether it lists only the top N.
UNLISTED = _sql("""
WITH per_snapshot AS (
  SELECT bool_and(top_n_only) AS top_n,
         sum(unlisted_read_requests_bound + unlisted_write_requests_bound) AS requests,
         max(extract(epoch FROM end_at - begin_at)) AS interval_s
  FROM {snapshot}
  WHERE target_id = %(target)s AND end_at >= %(start)s AND end_at < %(stop)s
    AND dbid = ({current_dbid})
  GROUP BY kind, dbid, snap_id
)
SELECT count(*) FILTER (WHERE top_n), count(*) FILTER (WHERE NOT top_n),
       bool_or(requests IS NULL) FILTER (WHERE top_n), sum(requests / nullif(interval_s, 0)) FILTER (WHERE top_n)
FROM per_snapshot
""", current_dbid=current_dbid(sql.Placeholder("target")))


# --------------------------------------------------------------------------- partitions (apps.snapshots.partitions)

#: The partitions of a table (``%s``: its name) in the current schema, by name.
PARTITIONS_OF = sql.SQL(
    "SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid "
    "JOIN pg_class p ON p.oid = i.inhparent WHERE p.relname = %s AND p.relnamespace = c.relnamespace "
    "AND c.relnamespace = to_regnamespace(current_schema())::oid")


def partition_create(name: str) -> sql.Composed:
    """A day's partition, made apart (filled, then attached)."""
    return _sql("CREATE TABLE {name} (LIKE {segmentstat} INCLUDING DEFAULTS)", name=sql.Identifier(name))


def partition_fill(name: str, default: str) -> sql.Composed:
    """The rows of [``%s``, ``%s``) that the default partition caught, moved into the partition ``name``."""
    return _sql("WITH moved AS (DELETE FROM {default} WHERE end_at >= %s AND end_at < %s RETURNING *) "
                "INSERT INTO {name} SELECT * FROM moved", default=sql.Identifier(default), name=sql.Identifier(name))


def partition_attach(name: str) -> sql.Composed:
    """``name`` attached as the partition of [``%s``, ``%s``)."""
    return _sql("ALTER TABLE {segmentstat} ATTACH PARTITION {name} FOR VALUES FROM (%s) TO (%s)",
                name=sql.Identifier(name))


def partition_drop(name: str) -> sql.Composed:
    return _sql("DROP TABLE IF EXISTS {name}", name=sql.Identifier(name))


def default_days(default: str) -> sql.Composed:
    """The UTC days of the rows in the default partition ``default``."""
    return _sql("SELECT DISTINCT (end_at AT TIME ZONE 'UTC')::date FROM {default} ORDER BY 1",
                default=sql.Identifier(default))


# The days before ``%s`` where some snapshot is still within its target's horizon (target ids ``%s``, their
# horizons ``%s``), or its target has none.
DAYS_NEEDED = _sql("""
SELECT DISTINCT (s.end_at AT TIME ZONE 'UTC')::date
  FROM {snapshot} s
  LEFT JOIN unnest(%s::int[], %s::timestamptz[]) h(target_id, horizon) ON h.target_id = s.target_id
 WHERE s.end_at < %s AND (h.horizon IS NULL OR s.end_at >= h.horizon)
""")

# --------------------------------------------------------------------------- the store (apps.snapshots.store)

# A known segment's columns after an upsert. Size and hints only change when the source listed the
# segment (DBA_SEGMENTS); a segment seen only in AWR keeps its last known size.
_IF_LISTED = "CASE WHEN EXCLUDED.size_at IS NULL THEN s.{column} ELSE EXCLUDED.{column} END"
SEGMENT_MERGE = {
    "tablespace_name": "CASE WHEN EXCLUDED.tablespace_name <> '' THEN EXCLUDED.tablespace_name ELSE s.tablespace_name END",
    "obj_number": "COALESCE(EXCLUDED.obj_number, s.obj_number)",
    "dataobj_number": "COALESCE(EXCLUDED.dataobj_number, s.dataobj_number)",
    **{column: _IF_LISTED for column in ("partitioned_parent", "lob_column", "partition_position",
                                         "partition_interval", "parent_partition", "table_partition_name",
                                         "partitioning", "partition_bound", "partition_order")},
    "size_bytes": "COALESCE(EXCLUDED.size_bytes, s.size_bytes)",
    **{column: _IF_LISTED for column in ("buffer_pool", "flash_cache", "cell_flash_cache")},
    "in_awr": "s.in_awr OR EXCLUDED.in_awr",
    # As the latest source printed the name (a text report cuts it; a listing by its full name does not).
    "name_truncated": "EXCLUDED.name_truncated",
}
_SEGMENT_SEEN = {
    "size_at": "COALESCE(EXCLUDED.size_at, s.size_at)",
    "last_seen_at": "GREATEST(s.last_seen_at, EXCLUDED.last_seen_at)",
}


def _merged(column: str, rule: str) -> sql.Composed:
    return sql.SQL(rule).format(column=sql.Identifier(column))


SEGMENT_IN_DROP_IF_EXISTS = sql.SQL("DROP TABLE IF EXISTS pg_temp.segment_in")
SEGMENT_IN_DROP = sql.SQL("DROP TABLE pg_temp.segment_in")
# The columns of SegmentRow with the segment table's own types.
SEGMENT_IN_CREATE = _sql("CREATE TEMP TABLE segment_in ON COMMIT DROP AS SELECT {columns} FROM {segment} WITH NO DATA",
                         columns=names(SegmentRow._fields))
SEGMENT_IN_COPY = sql.SQL("COPY segment_in FROM STDIN")
# A segment whose figures did not change is not rewritten (at 100k segments an hourly collection
# rewrote every row for its timestamps: 4 of its 5 seconds); its size_at and last_seen_at then
# advance once a day.
SEGMENT_UPSERT = _sql("""
INSERT INTO {segment} AS s ({columns})
SELECT * FROM segment_in
ON CONFLICT (target_id, container, owner, object_name, subobject_name, object_type) DO UPDATE SET
  {sets}
WHERE ({stored}) IS DISTINCT FROM ({merged})
   OR s.last_seen_at < EXCLUDED.last_seen_at - interval '1 day'
""", columns=names(SegmentRow._fields),
    sets=sql.SQL(", ").join(sql.SQL("{} = {}").format(sql.Identifier(column), _merged(column, rule))
                            for column, rule in {**SEGMENT_MERGE, **_SEGMENT_SEEN}.items()),
    stored=names(SEGMENT_MERGE, prefix="s"),
    merged=sql.SQL(", ").join(_merged(column, rule) for column, rule in SEGMENT_MERGE.items()))
SEGMENT_IN_IDS = _sql("""
SELECT s.id, s.owner, s.object_name, s.subobject_name, s.object_type, s.container
FROM {segment} s
JOIN segment_in i USING (target_id, container, owner, object_name, subobject_name, object_type)
""")
SNAPSHOTS_INSERT = _sql("""
INSERT INTO {snapshot} (target_id, kind, dbid, instance_number, snap_id, begin_at, end_at,
                        startup_at, top_n_only, unlisted_read_requests_bound,
                        unlisted_write_requests_bound, database_instances, created_at)
SELECT v.*, now() FROM unnest(%s::bigint[], %s::text[], %s::bigint[], %s::int[], %s::bigint[],
                             %s::timestamptz[], %s::timestamptz[], %s::timestamptz[], %s::bool[],
                             %s::bigint[], %s::bigint[], %s::smallint[]) AS v
ON CONFLICT (target_id, dbid, instance_number, kind, snap_id) DO NOTHING
RETURNING id, dbid, instance_number, snap_id
""")


def segment_stats_copy(columns: Sequence[str]) -> sql.Composed:
    return _sql("COPY {segmentstat} ({columns}) FROM STDIN", columns=names(columns))

