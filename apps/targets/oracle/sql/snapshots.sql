-- Reads: DBA_HIST_SNAPSHOT (exempt from the Diagnostics Pack).
-- Why: the AWR snapshots newer than the last one tierscope stored, for every instance of the
-- database; the caller drops, per instance, the ones at or below that instance's own last SNAP_ID.
-- Times are server local TIMESTAMPs; SNAP_TZ_OFFSET_MIN (from SNAP_TIMEZONE, 11.2.0.2+) turns them to UTC.
-- Binds: :dbid, :last_snap_id (exclusive lower bound), :begin_at (lower bound of END_INTERVAL_TIME,
-- server local time; bounds the first run to the history window).
SELECT s.dbid,
       s.instance_number,
       s.snap_id,
       s.startup_time,
       s.begin_interval_time,
       s.end_interval_time,
       EXTRACT(HOUR FROM s.snap_timezone) * 60 + EXTRACT(MINUTE FROM s.snap_timezone) AS snap_tz_offset_min,
       s.error_count,
       s.snap_flag
FROM dba_hist_snapshot s
WHERE s.dbid = :dbid
  AND s.snap_id > :last_snap_id
  AND s.end_interval_time >= :begin_at
ORDER BY s.instance_number, s.snap_id
