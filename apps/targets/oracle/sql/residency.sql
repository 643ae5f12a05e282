-- Reads: V$BH (one row per buffer of the connected instance), aggregated on the server:
-- never pull buffer rows.
-- Why: how many blocks of each data object sit in the Database Smart Flash Cache (STATUS
-- flash%) versus the buffer cache (any other status). OBJD is the DATA object number
-- (DBA_OBJECTS.DATA_OBJECT_ID). Free buffers (free, flashfree, pmemfree) belong to no object.
-- Variant: single instance (RAC: residency_rac.sql). INST_ID is the connected instance, so both
-- variants return the same columns.
-- Binds: none.
SELECT TO_NUMBER(SYS_CONTEXT('USERENV', 'INSTANCE')) AS inst_id,
       b.objd AS dataobj_number,
       SUM(CASE WHEN b.status LIKE 'flash%' THEN 1 ELSE 0 END) AS flash_blocks,
       SUM(CASE WHEN b.status LIKE 'flash%' THEN 0 ELSE 1 END) AS cache_blocks
FROM v$bh b
WHERE b.status NOT IN ('free', 'flashfree', 'pmemfree')
GROUP BY b.objd
