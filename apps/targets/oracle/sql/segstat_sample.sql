-- Reads: GV$SEGSTAT (cumulative per-segment statistics since instance startup, every instance).
-- Why: real-time counters for every segment, including those below AWR's top-N capture, and
-- the only per-segment source in nopack mode. GV$SEGSTAT is a plain fixed view; the names come
-- from the segments statement of the same run (OBJ#/DATAOBJ# = OBJECT_ID/DATA_OBJECT_ID), which
-- is cheaper than V$SEGMENT_STATISTICS's dictionary join repeated at every sample.
-- Pivoted on the server to one row per (instance, segment); column names are the
-- SEGMENT_STAT_FIELDS of apps/targets/rows.py ('segment scans' counts table/index scans).
-- Binds: none.
SELECT s.inst_id,
       s.obj# AS obj_number,
       s.dataobj# AS dataobj_number,
       SUM(CASE WHEN s.statistic_name = 'physical read requests' THEN s.value ELSE 0 END) AS physical_read_requests,
       SUM(CASE WHEN s.statistic_name = 'physical write requests' THEN s.value ELSE 0 END) AS physical_write_requests,
       SUM(CASE WHEN s.statistic_name = 'physical reads' THEN s.value ELSE 0 END) AS physical_reads_blocks,
       SUM(CASE WHEN s.statistic_name = 'physical writes' THEN s.value ELSE 0 END) AS physical_writes_blocks,
       SUM(CASE WHEN s.statistic_name = 'physical reads direct' THEN s.value ELSE 0 END) AS physical_reads_direct_blocks,
       SUM(CASE WHEN s.statistic_name = 'physical writes direct' THEN s.value ELSE 0 END) AS physical_writes_direct_blocks,
       SUM(CASE WHEN s.statistic_name = 'optimized physical reads' THEN s.value ELSE 0 END) AS optimized_physical_reads,
       SUM(CASE WHEN s.statistic_name = 'logical reads' THEN s.value ELSE 0 END) AS logical_reads,
       SUM(CASE WHEN s.statistic_name = 'db block changes' THEN s.value ELSE 0 END) AS db_block_changes,
       SUM(CASE WHEN s.statistic_name = 'segment scans' THEN s.value ELSE 0 END) AS table_scans
FROM gv$segstat s
WHERE s.statistic_name IN (
    'physical read requests',
    'physical write requests',
    'physical reads',
    'physical writes',
    'physical reads direct',
    'physical writes direct',
    'optimized physical reads',
    'logical reads',
    'db block changes',
    'segment scans'
)
GROUP BY s.inst_id, s.obj#, s.dataobj#
