-- Reads: DBA_HIST_SEG_STAT (per-segment *_DELTA counters of AWR's top segments per snapshot),
-- DBA_HIST_SEG_STAT_OBJ (segment names) and DBA_HIST_SNAPSHOT (time bound); all three are
-- exempt from the Diagnostics Pack.
-- Why: interval IO per segment for each new snapshot. IOPS come from the *_REQUESTS_DELTA
-- columns (I/O requests); PHYSICAL_READS/WRITES(_DIRECT)_DELTA and DB_BLOCK_CHANGES_DELTA are
-- blocks. SPACE_ALLOCATED_TOTAL is the segment size in bytes at the end of the interval.
-- The inner join to SEG_STAT_OBJ drops the rare row whose name AWR has already purged.
-- Variant: 11.2, which has no CON_DBID column (12.1 and later: seg_stat.sql).
-- Binds: :dbid, :last_snap_id (exclusive), :begin_at (END_INTERVAL_TIME lower bound, server local time).
SELECT ss.instance_number,
       ss.snap_id,
       o.owner,
       o.object_name,
       o.subobject_name,
       o.object_type,
       o.tablespace_name,
       ss.obj# AS obj_number,
       ss.dataobj# AS dataobj_number,
       ss.physical_read_requests_delta AS physical_read_requests,
       ss.physical_write_requests_delta AS physical_write_requests,
       ss.physical_reads_delta AS physical_reads_blocks,
       ss.physical_writes_delta AS physical_writes_blocks,
       ss.physical_reads_direct_delta AS physical_reads_direct_blocks,
       ss.physical_writes_direct_delta AS physical_writes_direct_blocks,
       ss.optimized_physical_reads_delta AS optimized_physical_reads,
       ss.logical_reads_delta AS logical_reads,
       ss.db_block_changes_delta AS db_block_changes,
       ss.table_scans_delta AS table_scans,
       ss.space_allocated_total AS space_allocated_bytes,
       CAST(NULL AS NUMBER) AS con_id
FROM dba_hist_seg_stat ss
JOIN dba_hist_snapshot sn
  ON sn.snap_id = ss.snap_id
 AND sn.dbid = ss.dbid
 AND sn.instance_number = ss.instance_number
JOIN dba_hist_seg_stat_obj o
  ON o.dbid = ss.dbid
 AND o.ts# = ss.ts#
 AND o.obj# = ss.obj#
 AND o.dataobj# = ss.dataobj#
WHERE ss.dbid = :dbid
  AND ss.snap_id > :last_snap_id
  AND sn.end_interval_time >= :begin_at
ORDER BY ss.instance_number, ss.snap_id
