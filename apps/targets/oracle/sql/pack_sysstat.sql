-- Reads: DBA_HIST_SYSSTAT (Diagnostics Pack) joined to DBA_HIST_SNAPSHOT.
-- Why: flash cache and request counters per AWR snapshot. VALUE is cumulative since instance
-- startup, so the caller computes deltas per (instance, name) between consecutive snapshots of
-- the same STARTUP_TIME. SNAP_ID >= :last_snap_id (not >) so that the last stored snapshot's
-- values are there to difference the first new one against. The name list is the same as in
-- sysstat_sample.sql.
-- Binds: :dbid, :last_snap_id (inclusive), :begin_at (END_INTERVAL_TIME lower bound, server local time).
SELECT st.instance_number,
       st.snap_id,
       sn.startup_time,
       sn.begin_interval_time,
       sn.end_interval_time,
       EXTRACT(HOUR FROM sn.snap_timezone) * 60 + EXTRACT(MINUTE FROM sn.snap_timezone) AS snap_tz_offset_min,
       st.stat_name,
       st.value
FROM dba_hist_sysstat st
JOIN dba_hist_snapshot sn
  ON sn.snap_id = st.snap_id
 AND sn.dbid = st.dbid
 AND sn.instance_number = st.instance_number
WHERE st.dbid = :dbid
  AND st.snap_id >= :last_snap_id
  AND sn.end_interval_time >= :begin_at
  AND st.stat_name IN (
    'session logical reads',
    'physical reads',
    'physical writes',
    'physical read IO requests',
    'physical write IO requests',
    'physical read total IO requests',
    'physical write total IO requests',
    'physical read requests optimized',
    'physical read total bytes optimized',
    'physical write total bytes optimized',
    'cell flash cache read hits',
    'flash cache inserts',
    'physical read flash cache hits',
    'flash cache insert skip: DBWR overloaded',
    'flash cache insert skip: exists',
    'flash cache insert skip: not useful',
    'flash cache insert skip: modification',
    'flash cache insert skip: not current',
    'flash cache insert skip: corrupt',
    'flash cache eviction: invalidated',
    'flash cache eviction: buffer pinned',
    'flash cache eviction: aged out'
)
ORDER BY st.instance_number, st.stat_name, st.snap_id
