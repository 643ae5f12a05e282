-- Reads: DBA_SEGMENTS (size, tablespace, BUFFER_POOL / FLASH_CACHE / CELL_FLASH_CACHE hints),
-- DBA_OBJECTS (OBJECT_ID = OBJ#, DATA_OBJECT_ID = V$BH.OBJD and DATAOBJ#), DBA_LOBS (the
-- table and column a LOB segment belongs to; DBA_LOBS itself carries no cache hints, so the
-- hints of a LOB come from its DBA_SEGMENTS row) and DBA_LOB_PARTITIONS (the table partition a
-- LOB partition belongs to).
-- Why: current size and placement of every segment, and the object numbers that name the
-- V$SEGSTAT and V$BH rows. SEGMENT_NAME of a partition is already its table/index name, so
-- DBA_TAB_PARTITIONS / DBA_IND_PARTITIONS are not needed for the parent.
-- DBA_TAB_PARTITIONS / DBA_IND_PARTITIONS give a partition's PARTITION_POSITION (range and interval
-- partitions are numbered oldest first) and INTERVAL ('YES': created by interval partitioning), for
-- the partition lifecycle (apps.tiering.recommendations.lifecycle). HIGH_VALUE is LONG (no expression, no inline view:
-- the extract wraps every column) and DBA_PART_TABLES is not in the catalog, so neither is read.
-- The DECODE maps DBA_SEGMENTS.SEGMENT_TYPE to DBA_OBJECTS.OBJECT_TYPE: a table and an index
-- may share a name, so the type is part of the join.
-- Binds: none.
SELECT s.owner,
       s.segment_name,
       s.partition_name,
       s.segment_type,
       s.tablespace_name,
       s.bytes,
       s.blocks,
       s.buffer_pool,
       s.flash_cache,
       s.cell_flash_cache,
       o.object_id AS obj_number,
       o.data_object_id AS dataobj_number,
       l.table_name AS lob_table_name,
       l.column_name AS lob_column_name,
       lp.partition_name AS lob_table_partition_name,
       COALESCE(tp.partition_position, ip.partition_position) AS partition_position,
       COALESCE(tp.interval, ip.interval) AS partition_interval
FROM dba_segments s
LEFT JOIN dba_objects o
  ON o.owner = s.owner
 AND o.object_name = s.segment_name
 AND NVL(o.subobject_name, ' ') = NVL(s.partition_name, ' ')
 AND o.object_type = DECODE(s.segment_type,
                            'LOBSEGMENT', 'LOB',
                            'LOBINDEX', 'INDEX',
                            'NESTED TABLE', 'TABLE',
                            s.segment_type)
LEFT JOIN dba_lobs l
  ON l.owner = s.owner
 AND s.segment_type IN ('LOBSEGMENT', 'LOB PARTITION', 'LOB SUBPARTITION', 'LOBINDEX')
 AND (l.segment_name = s.segment_name OR l.index_name = s.segment_name)
LEFT JOIN dba_lob_partitions lp
  ON lp.table_owner = s.owner
 AND s.segment_type = 'LOB PARTITION'
 AND lp.lob_name = s.segment_name
 AND lp.lob_partition_name = s.partition_name
LEFT JOIN dba_tab_partitions tp
  ON tp.table_owner = s.owner
 AND s.segment_type = 'TABLE PARTITION'
 AND tp.table_name = s.segment_name
 AND tp.partition_name = s.partition_name
LEFT JOIN dba_ind_partitions ip
  ON ip.index_owner = s.owner
 AND s.segment_type = 'INDEX PARTITION'
 AND ip.index_name = s.segment_name
 AND ip.partition_name = s.partition_name
WHERE s.segment_type NOT IN ('TEMPORARY', 'CACHE', 'SPACE HEADER', 'DEFERRED ROLLBACK')
