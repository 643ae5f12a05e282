-- Reads: DBA_HIST_FILESTATXS (Diagnostics Pack) joined to DBA_HIST_SNAPSHOT.
-- Why: tablespace read/write requests and read time per AWR snapshot, for current latencies.
-- Values are cumulative since instance startup (READTIM in centiseconds, returned here in
-- ms); the caller computes deltas per (instance, tablespace) between consecutive snapshots of
-- the same STARTUP_TIME. Summed per tablespace on the server: a file added later starts at
-- zero, a dropped file makes the sum go down and that interval is skipped.
-- Binds: :dbid, :last_snap_id (inclusive, see pack_sysstat.sql), :begin_at (END_INTERVAL_TIME
-- lower bound, server local time).
SELECT fs.instance_number,
       fs.snap_id,
       sn.startup_time,
       sn.begin_interval_time,
       sn.end_interval_time,
       EXTRACT(HOUR FROM sn.snap_timezone) * 60 + EXTRACT(MINUTE FROM sn.snap_timezone) AS snap_tz_offset_min,
       fs.tsname AS tablespace_name,
       SUM(fs.phyrds) AS read_requests,
       SUM(fs.phywrts) AS write_requests,
       SUM(fs.readtim) * 10 AS read_time_ms
FROM dba_hist_filestatxs fs
JOIN dba_hist_snapshot sn
  ON sn.snap_id = fs.snap_id
 AND sn.dbid = fs.dbid
 AND sn.instance_number = fs.instance_number
WHERE fs.dbid = :dbid
  AND fs.snap_id >= :last_snap_id
  AND sn.end_interval_time >= :begin_at
GROUP BY fs.instance_number,
         fs.snap_id,
         sn.startup_time,
         sn.begin_interval_time,
         sn.end_interval_time,
         sn.snap_timezone,
         fs.tsname
ORDER BY fs.instance_number, fs.tsname, fs.snap_id
