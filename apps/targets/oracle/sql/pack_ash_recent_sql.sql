-- Reads: GV$ACTIVE_SESSION_HISTORY (in-memory ASH of every instance; Diagnostics Pack), bounded by the
-- newest DBA_HIST_SNAPSHOT end (pack-exempt); GV$SQL.SQL_TEXT (its first 1000 characters) for the text.
-- Why: the statements driving each segment since AWR's last snapshot, which DBA_HIST does not hold yet.
-- Only samples after the newest snapshot's end are read, and only User I/O, Application, Cluster and
-- Concurrency waits (the only ones whose CURRENT_OBJ#, = DBA_OBJECTS.OBJECT_ID, means anything).
-- Aggregated on the server as pack_ash_segment_sql.sql does (one in-memory sample is one second);
-- SINCE_TIME is the snapshot end the window starts at, LAST_SAMPLE_TIME the newest sample counted
-- (server local times). The figures are provisional: the next collection's AWR window replaces them.
-- Binds: :dbid, :top_sql, :top_segments.
SELECT r.obj_number,
       r.sql_id,
       r.plan_hash_value,
       r.samples,
       r.sql_samples,
       r.since_time,
       r.last_sample_time,
       (SELECT MAX(q.sql_text)
          FROM gv$sql q
         WHERE q.sql_id = r.sql_id) AS sql_text
FROM (
    SELECT k.obj_number,
           k.sql_id,
           k.plan_hash_value,
           k.samples,
           k.sql_samples,
           k.since_time,
           MAX(k.last_sample_time) OVER () AS last_sample_time,
           k.sql_rank,
           DENSE_RANK() OVER (ORDER BY k.obj_samples DESC, k.obj_number) AS segment_rank
    FROM (
        SELECT g.obj_number,
               g.sql_id,
               g.plan_hash_value,
               g.samples,
               g.since_time,
               g.last_sample_time,
               SUM(g.samples) OVER (PARTITION BY g.sql_id) AS sql_samples,
               SUM(g.samples) OVER (PARTITION BY g.obj_number) AS obj_samples,
               ROW_NUMBER() OVER (PARTITION BY g.obj_number ORDER BY g.samples DESC, g.sql_id) AS sql_rank
        FROM (
            SELECT a.current_obj# AS obj_number,
                   a.sql_id,
                   MAX(a.sql_plan_hash_value) AS plan_hash_value,
                   COUNT(*) AS samples,
                   MAX(b.since_time) AS since_time,
                   MAX(a.sample_time) AS last_sample_time
            FROM gv$active_session_history a
            JOIN (
                SELECT MAX(sn.end_interval_time) AS since_time
                FROM dba_hist_snapshot sn
                WHERE sn.dbid = :dbid
            ) b
              ON a.sample_time > b.since_time
            WHERE a.wait_class IN ('User I/O', 'Application', 'Cluster', 'Concurrency')
              AND a.sql_id IS NOT NULL
              AND a.current_obj# > 0
            GROUP BY a.current_obj#, a.sql_id
        ) g
    ) k
) r
WHERE r.sql_rank <= :top_sql
  AND r.segment_rank <= :top_segments
ORDER BY r.obj_number, r.sql_rank
