# snapshots_segmentstat becomes a table partitioned by RANGE on end_at, one partition per UTC day
# (apps.snapshots.partitions), so retention drops whole days instead of deleting rows. The key carries end_at,
# as PostgreSQL requires of a partitioned table's primary key. Existing rows are copied into partitions made
# for their days; today's and the next two days' partitions are made ahead. A default partition catches a row
# written before its day had a partition by anything but the store.

from django.db import migrations, models

_PARTITION = """
CREATE TABLE snapshots_segmentstat (LIKE snapshots_segmentstat_old INCLUDING DEFAULTS) PARTITION BY RANGE (end_at);
ALTER TABLE snapshots_segmentstat ADD CONSTRAINT snapshots_segmentstat_pkey PRIMARY KEY (snapshot_id, segment_id, end_at);
CREATE INDEX segment_stat_series_idx ON snapshots_segmentstat (segment_id, end_at);
CREATE TABLE snapshots_segmentstat_default PARTITION OF snapshots_segmentstat DEFAULT;
DO $$
DECLARE d date;
BEGIN
  FOR d IN SELECT DISTINCT (end_at AT TIME ZONE 'UTC')::date FROM snapshots_segmentstat_old
           UNION SELECT (now() AT TIME ZONE 'UTC')::date + g FROM generate_series(0, 2) g LOOP
    EXECUTE format('CREATE TABLE %I PARTITION OF snapshots_segmentstat FOR VALUES FROM (%L) TO (%L)',
                   'snapshots_segmentstat_p' || to_char(d, 'YYYYMMDD'),
                   d::timestamp AT TIME ZONE 'UTC', (d + 1)::timestamp AT TIME ZONE 'UTC');
  END LOOP;
END
$$;
INSERT INTO snapshots_segmentstat SELECT * FROM snapshots_segmentstat_old;
DROP TABLE snapshots_segmentstat_old;
"""

_ASIDE = """
ALTER TABLE snapshots_segmentstat RENAME TO snapshots_segmentstat_old;
ALTER TABLE snapshots_segmentstat_old RENAME CONSTRAINT snapshots_segmentstat_pkey TO snapshots_segmentstat_old_pkey;
ALTER INDEX segment_stat_series_idx RENAME TO segment_stat_series_old_idx;
"""

_UNPARTITION = """
CREATE TABLE snapshots_segmentstat (LIKE snapshots_segmentstat_old INCLUDING DEFAULTS);
INSERT INTO snapshots_segmentstat SELECT * FROM snapshots_segmentstat_old;
ALTER TABLE snapshots_segmentstat ADD CONSTRAINT snapshots_segmentstat_pkey PRIMARY KEY (snapshot_id, segment_id);
CREATE INDEX segment_stat_series_idx ON snapshots_segmentstat (segment_id, end_at);
DROP TABLE snapshots_segmentstat_old CASCADE;
"""


class Migration(migrations.Migration):

    dependencies = [
        ('snapshots', '0020_collection_run_queue_worker'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[migrations.RunSQL(_ASIDE + _PARTITION, _ASIDE + _UNPARTITION)],
            state_operations=[
                migrations.AlterField(
                    model_name='segmentstat',
                    name='pk',
                    field=models.CompositePrimaryKey('snapshot', 'segment', 'end_at', blank=True, editable=False,
                                                     primary_key=True, serialize=False),
                ),
            ],
        ),
    ]
