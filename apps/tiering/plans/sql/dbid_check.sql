DECLARE
  running_dbid NUMBER;
BEGIN
  SELECT dbid INTO running_dbid FROM v$database;
  IF running_dbid <> &plan_dbid THEN
    RAISE_APPLICATION_ERROR(-20001, 'tierscope plan &plan_id is for DBID &plan_dbid, this database is DBID ' || running_dbid || ': nothing was run');
  END IF;
END;
/
