-- Reads: V$INSTANCE (release, instance number, startup time, host) and V$DATABASE (DBID, name)
-- of the instance this session is connected to.
-- Why: the release decides the statement variants (features.py); the DBID keys all AWR rows;
-- SERVER_UTC_OFFSET_MIN converts the server's local DATE/TIMESTAMP values to UTC.
-- Binds: none.
SELECT i.instance_number,
       i.instance_name,
       i.host_name,
       i.version,
       i.startup_time,
       d.dbid,
       d.name AS db_name,
       ROUND((CAST(SYSTIMESTAMP AS DATE) - CAST(SYS_EXTRACT_UTC(SYSTIMESTAMP) AS DATE)) * 1440) AS server_utc_offset_min
FROM v$instance i
CROSS JOIN v$database d
