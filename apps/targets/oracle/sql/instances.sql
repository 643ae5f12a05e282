-- Reads: GV$INSTANCE (every open instance of the database; one row on a single instance).
-- Why: maps GV$ INST_ID to INSTANCE_NUMBER and gives each instance's STARTUP_TIME, which
-- identifies the incarnation of the cumulative counters sampled right after this statement.
-- SAMPLED_AT_UTC is the server clock, so sample intervals do not depend on the worker's clock.
-- Binds: none.
SELECT gi.inst_id,
       gi.instance_number,
       gi.instance_name,
       gi.host_name,
       gi.startup_time,
       gi.status,
       SYS_EXTRACT_UTC(SYSTIMESTAMP) AS sampled_at_utc
FROM gv$instance gi
ORDER BY gi.inst_id
