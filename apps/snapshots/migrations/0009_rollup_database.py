"""Rollups record their database (DBID), and a delete of snapshots, however done, drops what was derived from them.

The trigger is in the database rather than in Django (a signal, the admin, a
service) because snapshots are deleted by the ORM, the admin, the retention
prune, a target's cascade and by hand in SQL: every one of them must leave
rollups that the next roll-up can trust.
"""

from django.db import migrations, models

# The (target, day)s of the deleted snapshots lose their rollup and the window bases covering them; the
# snapshots left on those days are rolled up again (from nothing) by the next roll-up. It first waits for
# a roll-up of the same target running meanwhile (its advisory lock: apps.snapshots.rollups
# _ROLL_UP_LOCK_NAMESPACE), which could otherwise write back a day it read before the delete.
# SegmentStat has no database foreign key (see the model): its rows go here when a delete bypassed the ORM.
_FORGET = """
CREATE FUNCTION snapshots_rollups_forget() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(7316003, target_id::int4) FROM (SELECT DISTINCT target_id FROM gone ORDER BY 1) t;
  WITH days AS (SELECT DISTINCT target_id, (end_at AT TIME ZONE 'UTC')::date AS day FROM gone)
  DELETE FROM snapshots_rollupday r USING days d WHERE r.target_id = d.target_id AND r.day = d.day;
  WITH days AS (SELECT DISTINCT target_id, (end_at AT TIME ZONE 'UTC')::date AS day FROM gone)
  DELETE FROM snapshots_windowbase w USING days d
   WHERE w.target_id = d.target_id AND d.day BETWEEN w.first_day AND w.last_day;
  WITH days AS (SELECT DISTINCT target_id, (end_at AT TIME ZONE 'UTC')::date AS day FROM gone)
  UPDATE snapshots_snapshot s SET rolled_up = false FROM days d
   WHERE s.target_id = d.target_id AND s.rolled_up
     AND s.end_at >= d.day::timestamp AT TIME ZONE 'UTC' AND s.end_at < (d.day + 1)::timestamp AT TIME ZONE 'UTC';
  DELETE FROM snapshots_segmentstat st USING gone g WHERE st.snapshot_id = g.id;
  RETURN NULL;
END
$$;
CREATE TRIGGER snapshots_rollups_forget AFTER DELETE ON snapshots_snapshot
  REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION snapshots_rollups_forget();
"""

_FORGET_DROP = """
DROP TRIGGER snapshots_rollups_forget ON snapshots_snapshot;
DROP FUNCTION snapshots_rollups_forget();
"""

# A target that has only ever had one database keeps its rollups; the others' (whose rollups may have
# summed two databases) are rebuilt by their next roll-up, which finds no DBID on them.
_DBID_FILL = """
UPDATE snapshots_rollupday r SET dbid = one.dbid
FROM (SELECT target_id, min(dbid) AS dbid FROM snapshots_snapshot GROUP BY target_id HAVING count(DISTINCT dbid) = 1
     ) one
WHERE one.target_id = r.target_id
"""


class Migration(migrations.Migration):

    dependencies = [
        ('snapshots', '0008_window_bases'),
    ]

    operations = [
        migrations.AddField(
            model_name='rollupday',
            name='dbid',
            field=models.BigIntegerField(null=True),
        ),
        migrations.RunSQL(_DBID_FILL, migrations.RunSQL.noop),
        migrations.RunSQL(_FORGET, _FORGET_DROP),
    ]
