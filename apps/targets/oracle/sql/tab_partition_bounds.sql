-- Reads: DBA_TAB_PARTITIONS (every table partition's bound).
-- Why: the partition lifecycle judges "newer than the hot partition" by bound, not by
-- PARTITION_POSITION, and a composite table's partitions have no segment of their own: their
-- subpartitions take their bound (apps.targets.partitioning).
-- HIGH_VALUE is a LONG: selected as it is (no expression can read a LONG, and a LONG cannot be in a
-- UNION, hence a statement of its own); python-oracledb returns it as str. HIGH_VALUE_LENGTH lets the
-- mapping refuse an overlong one. The offline extract reads it in PL/SQL (build_extract.py).
-- Long columns: HIGH_VALUE
-- Binds: none.
SELECT p.table_owner AS owner,
       p.table_name AS object_name,
       p.partition_name,
       p.partition_position,
       p.high_value_length,
       p.high_value
FROM dba_tab_partitions p
