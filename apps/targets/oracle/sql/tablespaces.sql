-- Reads: DBA_TABLESPACES (block size, contents), DBA_DATA_FILES (file sizes, AUTOEXTENSIBLE,
-- MAXBYTES) and DBA_SEGMENTS (space allocated to segments), all pack-free.
-- Why: room for moves. A move needs the segment's size free in its destination tablespace,
-- counting what the plan's earlier moves take and free. Size is what the files hold now; max size
-- what they may grow to (an autoextensible file up to MAXBYTES, never below its BYTES; a fixed
-- file its BYTES); used is what segments hold (DBA_SEGMENTS.BYTES; recycle-bin segments count, as
-- DBA_SEGMENTS lists them until purged). DBA_TABLESPACE_USAGE_METRICS would give used and max in
-- blocks, but it is not in the catalog this statement is checked against, so the sums here stand
-- for it. Temporary and undo tablespaces are left out: no segment moves into them.
-- Binds: none.
SELECT t.tablespace_name,
       t.block_size AS block_size_bytes,
       t.contents,
       f.size_bytes,
       f.max_size_bytes,
       f.autoextensible_files,
       NVL(u.used_bytes, 0) AS used_bytes
FROM dba_tablespaces t
JOIN (SELECT d.tablespace_name,
             SUM(d.bytes) AS size_bytes,
             SUM(CASE WHEN d.autoextensible = 'YES' THEN GREATEST(d.maxbytes, d.bytes) ELSE d.bytes END)
               AS max_size_bytes,
             SUM(CASE WHEN d.autoextensible = 'YES' THEN 1 ELSE 0 END) AS autoextensible_files
      FROM dba_data_files d
      GROUP BY d.tablespace_name) f
  ON f.tablespace_name = t.tablespace_name
LEFT JOIN (SELECT s.tablespace_name,
                  SUM(s.bytes) AS used_bytes
           FROM dba_segments s
           GROUP BY s.tablespace_name) u
  ON u.tablespace_name = t.tablespace_name
WHERE t.contents = 'PERMANENT'
