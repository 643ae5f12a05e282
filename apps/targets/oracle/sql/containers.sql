-- Reads: V$DATABASE (CDB: YES in a multitenant container database) and V$CONTAINERS (each container's
-- CON_ID and NAME the session can see: in a PDB only that PDB, in the root every open container).
-- Why: a CDB's segments belong to their PDB (the same owner.object in two PDBs are two segments), so
-- every segment row is named with its container: DBA_SEGMENTS rows with the session's own container,
-- DBA_HIST_SEG_STAT rows with the container of their CON_ID (from the root, AWR holds every PDB's rows).
-- Variant: 12.1 and later (V$DATABASE.CDB and V$CONTAINERS do not exist in 11.2: a non-CDB).
-- Binds: none.
SELECT d.cdb,
       c.con_id,
       c.name AS con_name,
       SYS_CONTEXT('USERENV', 'CON_ID') AS session_con_id
FROM v$database d
CROSS JOIN v$containers c
ORDER BY c.con_id
