-- Reads: DBA_DATA_FILES and DBA_TEMP_FILES (file name, size, tablespace), both pack-free.
-- Why: the storage map. A file's name says where it lives: '+DATA/...' is ASM disk group DATA, a path
-- is on a file system (its mount point is the longest one the DBA declared, else the path's first two
-- components). Map a disk group or mount point to a tier once and its tablespaces' tiers follow.
-- V$ASM_DISKGROUP would give the disk groups' names and sizes, but it is not in the catalog this
-- statement is checked against (and it needs an ASM instance's view of the groups), so the disk group
-- comes from the file name alone. Temp files are listed too (FILE_TYPE 'TEMP'): no segment moves into
-- them, but they share the disk groups the map shows.
-- Binds: none.
SELECT d.tablespace_name,
       d.file_id,
       d.file_name,
       d.bytes AS size_bytes,
       d.autoextensible,
       d.maxbytes AS max_size_bytes,
       'DATA' AS file_type
FROM dba_data_files d
UNION ALL
SELECT t.tablespace_name,
       t.file_id,
       t.file_name,
       t.bytes AS size_bytes,
       t.autoextensible,
       t.maxbytes AS max_size_bytes,
       'TEMP' AS file_type
FROM dba_temp_files t
