"""The PostgreSQL of the snapshots app's initial migration that its models cannot say: the daily partitions of
snapshots_segmentstat, the rollup version sequence, the storage of the rollup blobs, the trigram index of the
name search and the trigger that forgets the rollups of deleted snapshots. A module of its own (the loader skips
names starting with "_") so the migration stays readable."""

#: The rollups' version numbers (RollupDay.version, RollupHour.version): one sequence, so versions order writes.
ROLLUP_VERSION = "CREATE SEQUENCE snapshots_rollup_version"
ROLLUP_VERSION_DROP = "DROP SEQUENCE snapshots_rollup_version"

# snapshots_segmentstat is partitioned by RANGE on end_at, one partition per UTC day (apps.snapshots.partitions),
# so retention drops whole days instead of deleting rows. The key carries end_at, as PostgreSQL requires of a
# partitioned table's primary key. No database foreign keys (see the model). Today's and the next two days'
# partitions are made here, the later ones by the periodic task; a default partition catches a row written
# before its day had a partition by anything but the store.
SEGMENT_STAT = """
CREATE TABLE snapshots_segmentstat (
    snapshot_id bigint NOT NULL,
    segment_id bigint NOT NULL,
    end_at timestamp with time zone NOT NULL,
    interval_s double precision NOT NULL,
    physical_read_requests bigint,
    physical_write_requests bigint,
    physical_reads_blocks bigint,
    physical_writes_blocks bigint,
    physical_reads_direct_blocks bigint,
    physical_writes_direct_blocks bigint,
    optimized_physical_reads bigint,
    logical_reads bigint,
    db_block_changes bigint,
    table_scans bigint,
    space_allocated_bytes bigint,
    read_requests_bound bigint,
    write_requests_bound bigint
) PARTITION BY RANGE (end_at);
ALTER TABLE snapshots_segmentstat ADD CONSTRAINT snapshots_segmentstat_pkey PRIMARY KEY (snapshot_id, segment_id, end_at);
CREATE INDEX segment_stat_series_idx ON snapshots_segmentstat (segment_id, end_at);
CREATE TABLE snapshots_segmentstat_default PARTITION OF snapshots_segmentstat DEFAULT;
DO $$
DECLARE d date;
BEGIN
  FOR d IN SELECT (now() AT TIME ZONE 'UTC')::date + g FROM generate_series(0, 2) g LOOP
    EXECUTE format('CREATE TABLE %I PARTITION OF snapshots_segmentstat FOR VALUES FROM (%L) TO (%L)',
                   'snapshots_segmentstat_p' || to_char(d, 'YYYYMMDD'),
                   d::timestamp AT TIME ZONE 'UTC', (d + 1)::timestamp AT TIME ZONE 'UTC');
  END LOOP;
END
$$;
"""
SEGMENT_STAT_DROP = "DROP TABLE snapshots_segmentstat"

# The daily rollup and window-base blobs are numbers that do not compress: stored out of line as they are, never
# tried by pglz. They are rewritten whole at every roll-up (hourly), each rewrite leaving a dead tuple and dead
# TOAST chunks the size of the blob: these tables (and their TOAST) are vacuumed after a fixed number of dead
# tuples rather than the default 20% of a table of few live rows, so the space of the rewritten blobs is reused
# by the next roll-up rather than added to. The part of a day still going on (RollupHour) is compressed (lz4
# where the server has it, else PostgreSQL's default: a third of the bytes of the raw numbers) and vacuumed
# the same way, being replaced at every roll-up.
_AUTOVACUUM = ("autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 200, "
               "toast.autovacuum_vacuum_scale_factor = 0, toast.autovacuum_vacuum_threshold = 200")
_AUTOVACUUM_RESET = ("autovacuum_vacuum_scale_factor, autovacuum_vacuum_threshold, "
                     "toast.autovacuum_vacuum_scale_factor, toast.autovacuum_vacuum_threshold")
_BLOB_TABLES = ("snapshots_rollupday", "snapshots_windowbase", "snapshots_rolluphour")
ROLLUP_STORAGE = f"""
ALTER TABLE snapshots_rollupday ALTER COLUMN data SET STORAGE EXTERNAL;
ALTER TABLE snapshots_windowbase ALTER COLUMN data SET STORAGE EXTERNAL;
DO $$
BEGIN
  ALTER TABLE snapshots_rolluphour ALTER COLUMN data SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported THEN
  NULL;  -- a server built without lz4: its default compression
END
$$;
{"".join(f"ALTER TABLE {table} SET ({_AUTOVACUUM});" for table in _BLOB_TABLES)}
"""
ROLLUP_STORAGE_RESET = "".join(f"ALTER TABLE {table} RESET ({_AUTOVACUUM_RESET});" for table in _BLOB_TABLES)

# A GIN trigram index (pg_trgm) on a segment's OWNER.NAME, upper-cased: the name search of the dashboard
# (apps.dashboard.search) tests this same expression with LIKE, which the index answers for any part of a name.
SEGMENT_NAME_TRIGRAMS = ("CREATE INDEX segment_name_trgm_idx ON snapshots_segment"
                         " USING gin ((UPPER(owner || '.' || object_name)) gin_trgm_ops)")
SEGMENT_NAME_TRIGRAMS_DROP = "DROP INDEX IF EXISTS segment_name_trgm_idx"

# A delete of snapshots, however done, drops what was derived from them. The trigger is in the database rather
# than in Django (a signal, the admin, a service) because snapshots are deleted by the ORM, the admin, the
# retention prune, a target's cascade and by hand in SQL: every one of them must leave rollups that the next
# roll-up can trust. The (target, day)s of the deleted snapshots lose their rollup, the part of the day still
# going on, and the window bases covering them; the snapshots left on those days are rolled up again (from
# nothing) by the next roll-up. It first waits for a roll-up of the same target running meanwhile (its advisory
# lock: apps.core.locks.LockSpace.ROLL_UP, which tests/core/test_locks.py holds equal to the literal here),
# which could otherwise write back a day it read before the delete. SegmentStat has no database foreign key
# (see the model): its rows go here when a delete bypassed the ORM.
ROLLUPS_FORGET = """
CREATE FUNCTION snapshots_rollups_forget() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(7316003, target_id::int4) FROM (SELECT DISTINCT target_id FROM gone ORDER BY 1) t;
  WITH days AS (SELECT DISTINCT target_id, (end_at AT TIME ZONE 'UTC')::date AS day FROM gone)
  DELETE FROM snapshots_rollupday r USING days d WHERE r.target_id = d.target_id AND r.day = d.day;
  WITH days AS (SELECT DISTINCT target_id, (end_at AT TIME ZONE 'UTC')::date AS day FROM gone)
  DELETE FROM snapshots_rolluphour h USING days d WHERE h.target_id = d.target_id AND h.day = d.day;
  WITH days AS (SELECT DISTINCT target_id, (end_at AT TIME ZONE 'UTC')::date AS day FROM gone)
  DELETE FROM snapshots_windowbase w USING days d
   WHERE w.target_id = d.target_id AND d.day BETWEEN w.first_day AND w.last_day;
  WITH days AS (SELECT DISTINCT target_id, (end_at AT TIME ZONE 'UTC')::date AS day FROM gone)
  UPDATE snapshots_snapshot s SET rolled_up = false FROM days d
   WHERE s.target_id = d.target_id AND s.rolled_up
     AND s.end_at >= d.day::timestamp AT TIME ZONE 'UTC' AND s.end_at < (d.day + 1)::timestamp AT TIME ZONE 'UTC';
  DELETE FROM snapshots_segmentstat st USING gone g WHERE st.snapshot_id = g.id;
  RETURN NULL;
END
$$;
CREATE TRIGGER snapshots_rollups_forget AFTER DELETE ON snapshots_snapshot
  REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION snapshots_rollups_forget();
"""
ROLLUPS_FORGET_DROP = """
DROP TRIGGER snapshots_rollups_forget ON snapshots_snapshot;
DROP FUNCTION snapshots_rollups_forget();
"""
