-- Reads: GV$BH (one row per buffer of every RAC instance), aggregated on the server per
-- instance: never pull buffer rows.
-- Why: flash cache (STATUS flash%) versus buffer cache residency of each data object, per
-- instance. OBJD is the DATA object number (DBA_OBJECTS.DATA_OBJECT_ID). Free buffers
-- (free, flashfree, pmemfree) belong to no object.
-- Variant: RAC (CLUSTER_DATABASE = TRUE); single instance: residency.sql.
-- Binds: none.
SELECT b.inst_id,
       b.objd AS dataobj_number,
       SUM(CASE WHEN b.status LIKE 'flash%' THEN 1 ELSE 0 END) AS flash_blocks,
       SUM(CASE WHEN b.status LIKE 'flash%' THEN 0 ELSE 1 END) AS cache_blocks
FROM gv$bh b
WHERE b.status NOT IN ('free', 'flashfree', 'pmemfree')
GROUP BY b.inst_id, b.objd
