-- Reads: V$PARAMETER (a fixed list of parameter names; names are lower case in this view).
-- Why: CONTROL_MANAGEMENT_PACK_ACCESS gates awr mode (NONE = Diagnostics Pack not enabled),
-- DB_BLOCK_SIZE converts blocks to bytes, CLUSTER_DATABASE picks GV$BH over V$BH, and the
-- DB_FLASH_CACHE_* pair says whether a Database Smart Flash Cache is configured.
-- Binds: none.
SELECT p.name,
       p.value
FROM v$parameter p
WHERE p.name IN (
    'control_management_pack_access',
    'db_block_size',
    'cluster_database',
    'db_flash_cache_file',
    'db_flash_cache_size'
)
