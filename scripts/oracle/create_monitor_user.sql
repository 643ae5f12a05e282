-- tierscope: create a least-privilege monitoring user (SQL*Plus, run as SYS or a DBA with
-- GRANT ANY OBJECT PRIVILEGE).
--
-- Usage:
--   sqlplus / as sysdba @create_monitor_user.sql <awr|nopack> <USER_NAME>
-- The password is prompted for (not echoed). In a CDB, connect to the PDB that tierscope reads.
--
-- awr    : the Diagnostics Pack is licensed; also grants the pack views awr mode reads
--          (DBA_HIST_SYSSTAT, DBA_HIST_FILESTATXS, DBA_HIST_ACTIVE_SESS_HISTORY,
--          DBA_HIST_SQLSTAT, DBA_HIST_SQLTEXT, DBA_HIST_SQL_PLAN, GV$ACTIVE_SESSION_HISTORY).
-- nopack : only the views nopack mode reads: the pack-exempt DBA_HIST_SNAPSHOT /
--          DBA_HIST_SEG_STAT / DBA_HIST_SEG_STAT_OBJ, DBA_ views and V$ views.
--
-- Grants name SYS.V_$X / SYS.GV_$X, the views behind the V$X / GV$X public synonyms: granting
-- on the synonym fails with ORA-02030. The list follows the views read by
-- apps/targets/oracle/sql/*.sql (a test checks it). The offline extract
-- (tierscope_extract.sql) reads the same views.
--
-- Alternative (broader, one grant): GRANT CREATE SESSION, SELECT_CATALOG_ROLE TO <user>;
-- SELECT_CATALOG_ROLE covers every DBA_/V$ view above (and many more). The role works for
-- tierscope's plain SQL; it would not work inside definer-rights PL/SQL (roles are disabled
-- there), which tierscope does not use. SELECT ANY DICTIONARY also works but is broader still.
-- On 12c and later READ may replace SELECT in the grants below.

WHENEVER SQLERROR EXIT FAILURE
SET VERIFY OFF DEFINE ON
DEFINE mode = '&1'
DEFINE monitor_user = '&2'
ACCEPT monitor_password CHAR PROMPT 'Password for &monitor_user: ' HIDE

BEGIN
  IF '&mode' NOT IN ('awr', 'nopack') THEN
    RAISE_APPLICATION_ERROR(-20001, 'create_monitor_user: mode must be awr or nopack, not &mode');
  END IF;
END;
/

CREATE USER &monitor_user IDENTIFIED BY "&monitor_password";
GRANT CREATE SESSION TO &monitor_user;

-- Both modes: instance, database and parameters (release, DBID, pack switch, RAC).
GRANT SELECT ON SYS.V_$INSTANCE TO &monitor_user;
GRANT SELECT ON SYS.GV_$INSTANCE TO &monitor_user;
GRANT SELECT ON SYS.V_$DATABASE TO &monitor_user;
-- 12.1 and later (multitenant): which containers the session sees (V$CONTAINERS does not exist in 11.2: ignore
-- the ORA-00942 this line gives there).
GRANT SELECT ON SYS.V_$CONTAINERS TO &monitor_user;
GRANT SELECT ON SYS.V_$PARAMETER TO &monitor_user;
-- Both modes: AWR views exempt from the Diagnostics Pack (segment history).
GRANT SELECT ON SYS.DBA_HIST_SNAPSHOT TO &monitor_user;
GRANT SELECT ON SYS.DBA_HIST_SEG_STAT TO &monitor_user;
GRANT SELECT ON SYS.DBA_HIST_SEG_STAT_OBJ TO &monitor_user;
-- Both modes: current segments, sizes, cache hints, LOB owners.
GRANT SELECT ON SYS.DBA_SEGMENTS TO &monitor_user;
GRANT SELECT ON SYS.DBA_OBJECTS TO &monitor_user;
GRANT SELECT ON SYS.DBA_LOBS TO &monitor_user;
GRANT SELECT ON SYS.DBA_LOB_PARTITIONS TO &monitor_user;
-- Both modes: a partition's position and whether interval partitioning made it (partition lifecycle).
GRANT SELECT ON SYS.DBA_TAB_PARTITIONS TO &monitor_user;
GRANT SELECT ON SYS.DBA_IND_PARTITIONS TO &monitor_user;
-- Both modes: composite partitioning (subpartitions' partitions), partitioning methods, key columns.
GRANT SELECT ON SYS.DBA_PART_TABLES TO &monitor_user;
GRANT SELECT ON SYS.DBA_PART_INDEXES TO &monitor_user;
GRANT SELECT ON SYS.DBA_PART_KEY_COLUMNS TO &monitor_user;
GRANT SELECT ON SYS.DBA_SUBPART_KEY_COLUMNS TO &monitor_user;
GRANT SELECT ON SYS.DBA_TAB_SUBPARTITIONS TO &monitor_user;
GRANT SELECT ON SYS.DBA_IND_SUBPARTITIONS TO &monitor_user;
GRANT SELECT ON SYS.DBA_LOB_SUBPARTITIONS TO &monitor_user;
GRANT SELECT ON SYS.DBA_DATA_FILES TO &monitor_user;
-- Both modes: room per tablespace (block size, contents, status; files above). Used space comes from
-- DBA_TABLESPACE_USAGE_METRICS, else DBA_FREE_SPACE; without either grant it is unknown (the run says so).
GRANT SELECT ON SYS.DBA_TABLESPACES TO &monitor_user;
GRANT SELECT ON SYS.DBA_TABLESPACE_USAGE_METRICS TO &monitor_user;
GRANT SELECT ON SYS.DBA_FREE_SPACE TO &monitor_user;
-- Both modes: ASM disk groups (redundancy, free and usable MB) under the data files. The _STAT view does
-- not start a disk discovery. Without the grant the disk groups' free space is unknown (the run says so).
GRANT SELECT ON SYS.V_$ASM_DISKGROUP_STAT TO &monitor_user;
-- Both modes: the storage map (where the data and temp files are: disk group or mount point).
GRANT SELECT ON SYS.DBA_TEMP_FILES TO &monitor_user;
-- Both modes: buffer cache / flash cache residency (granted to PUBLIC by default; explicit here
-- in case PUBLIC was revoked).
GRANT SELECT ON SYS.V_$BH TO &monitor_user;
GRANT SELECT ON SYS.GV_$BH TO &monitor_user;
-- Both modes: cumulative counters sampled every run.
GRANT SELECT ON SYS.GV_$SEGSTAT TO &monitor_user;
GRANT SELECT ON SYS.GV_$SYSSTAT TO &monitor_user;
GRANT SELECT ON SYS.GV_$FILESTAT TO &monitor_user;
-- Both modes: which SQL drives a segment (nopack: the cursor cache and its plans; awr: statement text).
GRANT SELECT ON SYS.GV_$SQL TO &monitor_user;
GRANT SELECT ON SYS.GV_$SQL_PLAN TO &monitor_user;

-- BEGIN awr-only grants: Diagnostics Pack views, granted only when mode is awr.
BEGIN
  IF '&mode' = 'awr' THEN
    EXECUTE IMMEDIATE 'GRANT SELECT ON SYS.DBA_HIST_SYSSTAT TO &monitor_user';
    EXECUTE IMMEDIATE 'GRANT SELECT ON SYS.DBA_HIST_FILESTATXS TO &monitor_user';
    EXECUTE IMMEDIATE 'GRANT SELECT ON SYS.DBA_HIST_ACTIVE_SESS_HISTORY TO &monitor_user';
    EXECUTE IMMEDIATE 'GRANT SELECT ON SYS.DBA_HIST_SQLSTAT TO &monitor_user';
    EXECUTE IMMEDIATE 'GRANT SELECT ON SYS.DBA_HIST_SQLTEXT TO &monitor_user';
    EXECUTE IMMEDIATE 'GRANT SELECT ON SYS.DBA_HIST_SQL_PLAN TO &monitor_user';
    EXECUTE IMMEDIATE 'GRANT SELECT ON SYS.GV_$ACTIVE_SESSION_HISTORY TO &monitor_user';
  END IF;
END;
/
-- END awr-only grants

PROMPT User &monitor_user created for tierscope mode &mode.
UNDEFINE monitor_password
