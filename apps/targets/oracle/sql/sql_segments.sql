-- Reads: GV$SQL (the cursor cache of every instance) and GV$SQL_PLAN (their plans); no pack needed.
-- Why: without the Diagnostics Pack, which statements read each segment: the :top_statements statements
-- with most physical read requests since they were loaded, and the objects their plans read (OBJECT# =
-- DBA_OBJECTS.OBJECT_ID, with OBJECT_OWNER/OBJECT_NAME: a partitioned table's plan names the table, not
-- its partitions), plan lines joined to their cursor on (INST_ID, SQL_ID, CHILD_NUMBER). Figures are
-- summed over children and instances per SQL_ID on the server: executions, read requests, disk reads
-- (blocks), elapsed microseconds, and the earliest FIRST_LOAD_TIME ('YYYY-MM-DD/HH24:MI:SS', server
-- local: the figures cover from then to now). FULL_SCAN is 1 when a plan reads the object whole (TABLE
-- ACCESS FULL, INDEX FAST FULL SCAN and their STORAGE/INMEMORY forms); PLAN_OBJECTS counts the objects
-- its plan reads. SQL_TEXT holds the first 1000 characters.
-- Binds: :top_statements.
WITH top_sql AS (
    SELECT t.sql_id,
           t.plan_hash_value,
           t.executions,
           t.read_requests,
           t.disk_reads_blocks,
           t.elapsed_us,
           t.first_load_time,
           t.sql_text
    FROM (
        SELECT s.sql_id,
               MAX(s.plan_hash_value) AS plan_hash_value,
               SUM(s.executions) AS executions,
               SUM(s.physical_read_requests) AS read_requests,
               SUM(s.disk_reads) AS disk_reads_blocks,
               SUM(s.elapsed_time) AS elapsed_us,
               MIN(s.first_load_time) AS first_load_time,
               MAX(s.sql_text) AS sql_text
        FROM gv$sql s
        WHERE s.physical_read_requests > 0
        GROUP BY s.sql_id
        ORDER BY SUM(s.physical_read_requests) DESC, s.sql_id
    ) t
    WHERE ROWNUM <= :top_statements
),
plan_reads AS (
    SELECT q.sql_id,
           pl.object# AS obj_number,
           pl.object_owner,
           pl.object_name,
           MAX(CASE WHEN pl.operation IN ('TABLE ACCESS', 'MAT_VIEW ACCESS') AND pl.options LIKE '%FULL%' THEN 1
                    WHEN pl.operation = 'INDEX' AND pl.options LIKE '%FAST FULL SCAN%' THEN 1
                    ELSE 0 END) AS full_scan
    FROM top_sql q
    JOIN gv$sql c
      ON c.sql_id = q.sql_id
    JOIN gv$sql_plan pl
      ON pl.inst_id = c.inst_id
     AND pl.sql_id = c.sql_id
     AND pl.child_number = c.child_number
    WHERE pl.object# IS NOT NULL
      AND pl.operation IN ('TABLE ACCESS', 'MAT_VIEW ACCESS', 'INDEX', 'BITMAP INDEX')
    GROUP BY q.sql_id, pl.object#, pl.object_owner, pl.object_name
)
SELECT p.obj_number,
       p.object_owner,
       p.object_name,
       q.sql_id,
       q.plan_hash_value,
       q.executions,
       q.read_requests,
       q.disk_reads_blocks,
       q.elapsed_us,
       q.first_load_time,
       q.sql_text,
       p.full_scan,
       COUNT(*) OVER (PARTITION BY q.sql_id) AS plan_objects
FROM top_sql q
JOIN plan_reads p
  ON p.sql_id = q.sql_id
ORDER BY p.obj_number, q.read_requests DESC, q.sql_id
