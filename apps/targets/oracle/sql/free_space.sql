-- Reads: DBA_FREE_SPACE (pack-free).
-- Why: the fallback for tablespace_usage.sql, where DBA_TABLESPACE_USAGE_METRICS is not readable or
-- does not list a tablespace (dictionary managed): used = what the files hold now (tablespaces.sql)
-- less their free extents. The view counts extents of dropped objects still in the recycle bin as
-- free (Oracle reuses them under space pressure, so they are room for a move), skips temporary
-- tablespaces and lists no extent of an OFFLINE one (its used space stays unknown, never "full").
-- A tablespace with no row here has no free extent: its files are full.
-- Binds: none.
SELECT f.tablespace_name,
       SUM(f.bytes) AS free_bytes,
       COUNT(*) AS free_extents
FROM dba_free_space f
GROUP BY f.tablespace_name
