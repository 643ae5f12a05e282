-- Reads: DBA_TABLESPACE_USAGE_METRICS (pack-free).
-- Why: what segments use in each tablespace, without a pass over DBA_SEGMENTS (the view reads the
-- space bitmaps' totals). USED_SPACE and TABLESPACE_SIZE are in BLOCKS of the tablespace's own block
-- size (tablespaces.sql gives it), not bytes; TABLESPACE_SIZE is the maximum size, autoextend counted,
-- so USED_PERCENT is a share of what the files may grow to, not of what they hold now. The view lists
-- only locally managed tablespaces (undo only for the current undo tablespace): a permanent tablespace
-- it does not list takes its used space from free_space.sql. A monitoring user refused this view
-- (ORA-00942, ORA-01031) gets the same from free_space.sql, with a note naming the view.
-- Binds: none.
SELECT m.tablespace_name,
       m.used_space AS used_blocks,
       m.tablespace_size AS max_size_blocks,
       m.used_percent
FROM dba_tablespace_usage_metrics m
