"""The part of a day still going on (RollupHour), which each roll-up rewrites instead of the day's whole
RollupDay every hour (apps.snapshots.rollups); a delete of snapshots forgets it with its day's rollups.

The parts are compressed (lz4 where the server has it, else PostgreSQL's default): a third of the bytes of
the raw numbers. Vacuumed like the other blob tables (migration 0022): a part is replaced at every roll-up.
"""

import django.db.models.deletion
from django.db import migrations, models

_AUTOVACUUM = ("autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 200, "
               "toast.autovacuum_vacuum_scale_factor = 0, toast.autovacuum_vacuum_threshold = 200")
_STORAGE = f"""
DO $$
BEGIN
  ALTER TABLE snapshots_rolluphour ALTER COLUMN data SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported THEN
  NULL;  -- a server built without lz4: its default compression
END
$$;
ALTER TABLE snapshots_rolluphour SET ({_AUTOVACUUM});
"""

_FORGET_HOURS = """
  WITH days AS (SELECT DISTINCT target_id, (end_at AT TIME ZONE 'UTC')::date AS day FROM gone)
  DELETE FROM snapshots_rolluphour h USING days d WHERE h.target_id = d.target_id AND h.day = d.day;"""


def _forget(hours: str) -> str:
    """Migration 0009's trigger function, forgetting the days' parts too (``hours``) or not."""
    return f"""
CREATE OR REPLACE FUNCTION snapshots_rollups_forget() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(7316003, target_id::int4) FROM (SELECT DISTINCT target_id FROM gone ORDER BY 1) t;
  WITH days AS (SELECT DISTINCT target_id, (end_at AT TIME ZONE 'UTC')::date AS day FROM gone)
  DELETE FROM snapshots_rollupday r USING days d WHERE r.target_id = d.target_id AND r.day = d.day;{hours}
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
"""


class Migration(migrations.Migration):

    dependencies = [
        ('snapshots', '0023_segment_name_trigram_index'),
        ('targets', '0006_target_collect_queue'),
    ]

    operations = [
        migrations.CreateModel(
            name='RollupHour',
            fields=[
                ('pk', models.CompositePrimaryKey('target', 'day', 'version', blank=True, editable=False, primary_key=True, serialize=False)),
                ('day', models.DateField()),
                ('version', models.BigIntegerField()),
                ('dbid', models.BigIntegerField()),
                ('roll_ups', models.PositiveSmallIntegerField(default=1)),
                ('rows', models.IntegerField(default=0)),
                ('width', models.PositiveSmallIntegerField(default=0)),
                ('data', models.BinaryField(default=b'')),
                ('target', models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='+', to='targets.target')),
            ],
        ),
        migrations.RunSQL(_STORAGE, migrations.RunSQL.noop),
        migrations.RunSQL(_forget(_FORGET_HOURS), _forget("")),
    ]
