-- Reads: V$ASM_DISKGROUP_STAT (pack-free).
-- Why: the storage map and room for moves. A data file named '+DATA/...' lives in disk group DATA; a
-- tablespace whose files autoextend there grows only as far as the group's usable free space lets it.
-- V$ASM_DISKGROUP_STAT, not V$ASM_DISKGROUP: same columns, but a query of V$ASM_DISKGROUP may start
-- a disk discovery (ASM reads the disks' headers, slow on a busy system, and every run would do it),
-- where the _STAT form returns what ASM already knows: the one to poll. From a database instance either lists only the disk groups the
-- instance uses (a group not listed stays unknown); in a pluggable database it may return no row at
-- all (documented for V$ASM_DISK_STAT in 23ai): then every disk group figure stays unknown. TOTAL_MB
-- and FREE_MB are raw space before mirroring; USABLE_FILE_MB is what files may still take once
-- mirroring (TYPE: EXTERN, NORMAL, HIGH, FLEX, EXTEND) and the REQUIRED_MIRROR_FREE_MB reserve are
-- counted, and it can be negative. GROUP_NUMBER, TOTAL_MB and FREE_MB are 0 for a group the instance
-- has not mounted (STATE says which). Not read: VOTING_FILES (not confirmed on 11.2),
-- LOGICAL_SECTOR_SIZE (12.2), CON_ID (12.1).
-- Binds: none.
SELECT g.group_number,
       g.name,
       g.state,
       g.type AS redundancy,
       g.total_mb,
       g.free_mb,
       g.required_mirror_free_mb,
       g.usable_file_mb,
       g.offline_disks,
       g.allocation_unit_size AS allocation_unit_bytes,
       g.sector_size AS sector_size_bytes,
       g.block_size AS block_size_bytes,
       g.compatibility,
       g.database_compatibility
FROM v$asm_diskgroup_stat g
