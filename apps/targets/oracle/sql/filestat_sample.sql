-- Reads: GV$FILESTAT (cumulative data file IO since instance startup, every instance) joined
-- to DBA_DATA_FILES for the tablespace.
-- Why: tablespace read/write requests and read time for current latencies, sampled each run;
-- the only source of these figures in nopack mode. READTIM is in centiseconds (returned in ms)
-- and is only maintained while TIMED_STATISTICS is TRUE (the default).
-- Binds: none.
SELECT f.inst_id,
       d.tablespace_name,
       SUM(f.phyrds) AS read_requests,
       SUM(f.phywrts) AS write_requests,
       SUM(f.readtim) * 10 AS read_time_ms
FROM gv$filestat f
JOIN dba_data_files d
  ON d.file_id = f.file#
GROUP BY f.inst_id, d.tablespace_name
