-- Reads: DBA_PART_TABLES and DBA_PART_INDEXES (how each partitioned table and index is partitioned).
-- Why: the partition lifecycle orders partitions by bound only where the method can make them time
-- slices (range, interval, list; never hash), and a composite's subpartitions take their partition's
-- place (apps.targets.partitioning). INTERVAL is set on an interval-partitioned table (its
-- PARTITIONING_TYPE stays RANGE); SUBPARTITIONING_TYPE is NONE unless composite.
-- Binds: none.
SELECT t.owner,
       t.table_name AS object_name,
       'TABLE' AS object_kind,
       t.partitioning_type,
       t.subpartitioning_type,
       t.interval AS partition_interval
FROM dba_part_tables t
UNION ALL
SELECT i.owner,
       i.index_name AS object_name,
       'INDEX' AS object_kind,
       i.partitioning_type,
       i.subpartitioning_type,
       i.interval AS partition_interval
FROM dba_part_indexes i
