-- Reads: DBA_IND_PARTITIONS (every index partition's bound).
-- Why: as tab_partition_bounds.sql, for partitioned indexes (a local index's partitions carry its
-- table's bounds; a global range-partitioned index has its own).
-- HIGH_VALUE is a LONG: selected as it is, in a statement of its own (see tab_partition_bounds.sql).
-- Long columns: HIGH_VALUE
-- Binds: none.
SELECT p.index_owner AS owner,
       p.index_name AS object_name,
       p.partition_name,
       p.partition_position,
       p.high_value_length,
       p.high_value
FROM dba_ind_partitions p
