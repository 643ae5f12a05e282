-- Reads: GV$SYSSTAT (cumulative system statistics since instance startup, every instance).
-- Why: flash cache activity (Database Smart Flash Cache and Exadata cell flash) and request
-- counters ('physical read IO requests' counts requests, 'physical reads' blocks), sampled each
-- run; the only source of these figures in nopack mode. Filtered by NAME: STATISTIC# changes
-- between releases. The name list is the same as in pack_sysstat.sql.
-- Binds: none.
SELECT s.inst_id,
       s.name,
       s.value
FROM gv$sysstat s
WHERE s.name IN (
    'session logical reads',
    'physical reads',
    'physical writes',
    'physical read IO requests',
    'physical write IO requests',
    'physical read total IO requests',
    'physical write total IO requests',
    'physical read requests optimized',
    'physical read total bytes optimized',
    'physical write total bytes optimized',
    'cell flash cache read hits',
    'flash cache inserts',
    'physical read flash cache hits',
    'flash cache insert skip: DBWR overloaded',
    'flash cache insert skip: exists',
    'flash cache insert skip: not useful',
    'flash cache insert skip: modification',
    'flash cache insert skip: not current',
    'flash cache insert skip: corrupt',
    'flash cache eviction: invalidated',
    'flash cache eviction: buffer pinned',
    'flash cache eviction: aged out'
)
