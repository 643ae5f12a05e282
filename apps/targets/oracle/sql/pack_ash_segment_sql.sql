-- Reads: DBA_HIST_ACTIVE_SESS_HISTORY (AWR's ASH samples), DBA_HIST_SQLSTAT (per-snapshot SQL figures)
-- and DBA_HIST_SQLTEXT (statement text); all three need the Diagnostics Pack.
-- Why: which statements drive each segment's IO over the snapshots just collected. An ASH sample names
-- the object the session waits on (CURRENT_OBJ# = DBA_OBJECTS.OBJECT_ID) only for User I/O, Application,
-- Cluster and Concurrency waits, so only those are counted. Aggregated on the server: samples per
-- (object, SQL_ID), the top :top_sql statements of each of the :top_segments objects with most samples;
-- SQL_SAMPLES is the statement's samples on any object (its share on this one attributes its reads).
-- The statement's own executions, read requests and elapsed time (microseconds) are the *_DELTA sums
-- of the same snapshots, every instance and plan; the text is cut to 1000 characters on the server.
-- Binds: :dbid, :after_snap_id (exclusive), :through_snap_id (inclusive), :top_sql, :top_segments.
SELECT r.obj_number,
       r.sql_id,
       r.plan_hash_value,
       r.samples,
       r.sql_samples,
       st.executions,
       st.read_requests,
       st.elapsed_us,
       (SELECT MAX(DBMS_LOB.SUBSTR(t.sql_text, 1000, 1))
          FROM dba_hist_sqltext t
         WHERE t.dbid = :dbid
           AND t.sql_id = r.sql_id) AS sql_text
FROM (
    SELECT k.obj_number,
           k.sql_id,
           k.plan_hash_value,
           k.samples,
           k.sql_samples,
           k.sql_rank,
           DENSE_RANK() OVER (ORDER BY k.obj_samples DESC, k.obj_number) AS segment_rank
    FROM (
        SELECT g.obj_number,
               g.sql_id,
               g.plan_hash_value,
               g.samples,
               SUM(g.samples) OVER (PARTITION BY g.sql_id) AS sql_samples,
               SUM(g.samples) OVER (PARTITION BY g.obj_number) AS obj_samples,
               ROW_NUMBER() OVER (PARTITION BY g.obj_number ORDER BY g.samples DESC, g.sql_id) AS sql_rank
        FROM (
            SELECT a.current_obj# AS obj_number,
                   a.sql_id,
                   MAX(a.sql_plan_hash_value) AS plan_hash_value,
                   COUNT(*) AS samples
            FROM dba_hist_active_sess_history a
            WHERE a.dbid = :dbid
              AND a.snap_id > :after_snap_id
              AND a.snap_id <= :through_snap_id
              AND a.wait_class IN ('User I/O', 'Application', 'Cluster', 'Concurrency')
              AND a.sql_id IS NOT NULL
              AND a.current_obj# > 0
            GROUP BY a.current_obj#, a.sql_id
        ) g
    ) k
) r
LEFT JOIN (
    SELECT s.sql_id,
           SUM(s.executions_delta) AS executions,
           SUM(s.physical_read_requests_delta) AS read_requests,
           SUM(s.elapsed_time_delta) AS elapsed_us
    FROM dba_hist_sqlstat s
    WHERE s.dbid = :dbid
      AND s.snap_id > :after_snap_id
      AND s.snap_id <= :through_snap_id
    GROUP BY s.sql_id
) st
  ON st.sql_id = r.sql_id
WHERE r.sql_rank <= :top_sql
  AND r.segment_rank <= :top_segments
ORDER BY r.obj_number, r.sql_rank
