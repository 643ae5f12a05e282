-- Reads: DBA_HIST_SQLSTAT (AWR's top SQL per snapshot), DBA_HIST_SQL_PLAN (their captured plans) and
-- DBA_HIST_SQLTEXT (statement text); all three need the Diagnostics Pack.
-- Why: the statements that read each segment over the snapshots just collected, whether or not ASH caught
-- them waiting on it (a segment read fast, or by direct path reads ASH names less often). The
-- :top_statements statements (SQL_ID and plan) with most physical read requests in the snapshots, and the
-- objects their plans read (OBJECT# = DBA_OBJECTS.OBJECT_ID, with OBJECT_OWNER/OBJECT_NAME: a partitioned
-- table's plan names the table). Figures are the *_DELTA sums over the snapshots and instances: executions,
-- read requests, elapsed microseconds. FULL_SCAN is 1 when the plan reads the object whole, PLAN_OBJECTS
-- counts the objects it reads; the text is cut to 1000 characters on the server.
-- Binds: :dbid, :after_snap_id (exclusive), :through_snap_id (inclusive), :top_statements.
WITH top_sql AS (
    SELECT r.sql_id,
           r.plan_hash_value,
           r.executions,
           r.read_requests,
           r.elapsed_us
    FROM (
        SELECT s.sql_id,
               s.plan_hash_value,
               SUM(s.executions_delta) AS executions,
               SUM(s.physical_read_requests_delta) AS read_requests,
               SUM(s.elapsed_time_delta) AS elapsed_us
        FROM dba_hist_sqlstat s
        WHERE s.dbid = :dbid
          AND s.snap_id > :after_snap_id
          AND s.snap_id <= :through_snap_id
        GROUP BY s.sql_id, s.plan_hash_value
        HAVING SUM(s.physical_read_requests_delta) > 0
        ORDER BY SUM(s.physical_read_requests_delta) DESC, s.sql_id, s.plan_hash_value
    ) r
    WHERE ROWNUM <= :top_statements
),
plan_reads AS (
    SELECT q.sql_id,
           q.plan_hash_value,
           pl.object# AS obj_number,
           pl.object_owner,
           pl.object_name,
           MAX(CASE WHEN pl.operation IN ('TABLE ACCESS', 'MAT_VIEW ACCESS') AND pl.options LIKE '%FULL%' THEN 1
                    WHEN pl.operation = 'INDEX' AND pl.options LIKE '%FAST FULL SCAN%' THEN 1
                    ELSE 0 END) AS full_scan
    FROM top_sql q
    JOIN dba_hist_sql_plan pl
      ON pl.dbid = :dbid
     AND pl.sql_id = q.sql_id
     AND pl.plan_hash_value = q.plan_hash_value
    WHERE pl.object# IS NOT NULL
      AND pl.operation IN ('TABLE ACCESS', 'MAT_VIEW ACCESS', 'INDEX', 'BITMAP INDEX')
    GROUP BY q.sql_id, q.plan_hash_value, pl.object#, pl.object_owner, pl.object_name
)
SELECT p.obj_number,
       p.object_owner,
       p.object_name,
       q.sql_id,
       q.plan_hash_value,
       q.executions,
       q.read_requests,
       q.elapsed_us,
       p.full_scan,
       COUNT(*) OVER (PARTITION BY q.sql_id, q.plan_hash_value) AS plan_objects,
       (SELECT MAX(DBMS_LOB.SUBSTR(t.sql_text, 1000, 1))
          FROM dba_hist_sqltext t
         WHERE t.dbid = :dbid
           AND t.sql_id = q.sql_id) AS sql_text
FROM top_sql q
JOIN plan_reads p
  ON p.sql_id = q.sql_id
 AND p.plan_hash_value = q.plan_hash_value
ORDER BY p.obj_number, q.read_requests DESC, q.sql_id
