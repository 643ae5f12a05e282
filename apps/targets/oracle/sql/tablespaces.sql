-- Reads: DBA_TABLESPACES (block size, contents, status) and DBA_DATA_FILES (file sizes,
-- AUTOEXTENSIBLE, MAXBYTES), both pack-free.
-- Why: room for moves. A move needs the segment's size free in its destination tablespace,
-- counting what the plan's earlier moves take and free. Size is what the files hold now; max size
-- what they may grow to (an autoextensible file up to MAXBYTES, never below its BYTES; a fixed
-- file its BYTES): the autoextend headroom is max size less size, and where the files autoextend
-- (their names: a disk group, a mount point) is in datafiles.sql. What segments use comes from
-- tablespace_usage.sql (DBA_TABLESPACE_USAGE_METRICS), else free_space.sql (DBA_FREE_SPACE), never
-- from a pass over DBA_SEGMENTS. STATUS says whether a tablespace is OFFLINE (DBA_FREE_SPACE then
-- lists none of its free extents). Temporary and undo tablespaces are left out: no segment moves
-- into them.
-- Binds: none.
SELECT t.tablespace_name,
       t.block_size AS block_size_bytes,
       t.contents,
       t.status,
       f.size_bytes,
       f.max_size_bytes,
       f.autoextensible_files
FROM dba_tablespaces t
JOIN (SELECT d.tablespace_name,
             SUM(d.bytes) AS size_bytes,
             SUM(CASE WHEN d.autoextensible = 'YES' THEN GREATEST(d.maxbytes, d.bytes) ELSE d.bytes END)
               AS max_size_bytes,
             SUM(CASE WHEN d.autoextensible = 'YES' THEN 1 ELSE 0 END) AS autoextensible_files
      FROM dba_data_files d
      GROUP BY d.tablespace_name) f
  ON f.tablespace_name = t.tablespace_name
WHERE t.contents = 'PERMANENT'
