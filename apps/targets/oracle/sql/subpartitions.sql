-- Reads: DBA_TAB_SUBPARTITIONS, DBA_IND_SUBPARTITIONS, DBA_LOB_SUBPARTITIONS (which partition each
-- subpartition belongs to).
-- Why: a composite-partitioned table's segments are its subpartitions (DBA_SEGMENTS.PARTITION_NAME is
-- the subpartition's name); their heat rolls up to their partition, and their place in the partition
-- lifecycle is their partition's. A LOB subpartition belongs to a LOB partition (LOB_PARTITION_NAME)
-- and sits beside a table subpartition (SUBPARTITION_NAME), which its MOVE names. Owner columns are
-- TABLE_OWNER / INDEX_OWNER (these views have no OWNER).
-- Binds: none.
SELECT s.table_owner AS owner,
       s.table_name AS object_name,
       'TABLE SUBPARTITION' AS segment_type,
       s.subpartition_name,
       s.partition_name,
       s.subpartition_name AS table_subpartition_name
FROM dba_tab_subpartitions s
UNION ALL
SELECT i.index_owner AS owner,
       i.index_name AS object_name,
       'INDEX SUBPARTITION' AS segment_type,
       i.subpartition_name,
       i.partition_name,
       CAST(NULL AS VARCHAR2(128)) AS table_subpartition_name
FROM dba_ind_subpartitions i
UNION ALL
SELECT l.table_owner AS owner,
       l.lob_name AS object_name,
       'LOB SUBPARTITION' AS segment_type,
       l.lob_subpartition_name AS subpartition_name,
       l.lob_partition_name AS partition_name,
       l.subpartition_name AS table_subpartition_name
FROM dba_lob_subpartitions l
