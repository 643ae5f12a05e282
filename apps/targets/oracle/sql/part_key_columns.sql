-- Reads: DBA_PART_KEY_COLUMNS and DBA_SUBPART_KEY_COLUMNS (the partitioning and subpartitioning key
-- columns of partitioned tables and indexes).
-- Why: the pages name a table's partitioning with its keys, e.g. RANGE(ORDER_DATE)-HASH(ORDER_ID).
-- OBJECT_TYPE is CHAR(5): 'TABLE' or 'INDEX'.
-- Binds: none.
SELECT k.owner,
       k.name AS object_name,
       k.object_type AS object_kind,
       'PARTITION' AS key_level,
       k.column_name,
       k.column_position
FROM dba_part_key_columns k
UNION ALL
SELECT s.owner,
       s.name AS object_name,
       s.object_type AS object_kind,
       'SUBPARTITION' AS key_level,
       s.column_name,
       s.column_position
FROM dba_subpart_key_columns s
