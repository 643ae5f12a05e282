# The daily rollup and window-base blobs are rewritten whole at every roll-up (hourly), each rewrite leaving
# a dead tuple and dead TOAST chunks the size of the blob. The default autovacuum trigger (20% of a table that
# has only a few live rows) waits far too long on the TOAST table, which grew to hundreds of MB for a few live
# rows. Vacuum these tables (and their TOAST) after a fixed number of dead tuples instead, so the space of
# the rewritten blobs is reused by the next roll-up rather than added to.

from django.db import migrations

_TABLES = ("snapshots_rollupday", "snapshots_windowbase")
_SET = ("autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 200, "
        "toast.autovacuum_vacuum_scale_factor = 0, toast.autovacuum_vacuum_threshold = 200")
_RESET = ("autovacuum_vacuum_scale_factor, autovacuum_vacuum_threshold, "
          "toast.autovacuum_vacuum_scale_factor, toast.autovacuum_vacuum_threshold")


class Migration(migrations.Migration):

    dependencies = [
        ('snapshots', '0021_segment_stat_daily_partitions'),
    ]

    operations = [
        migrations.RunSQL([f"ALTER TABLE {table} SET ({_SET})" for table in _TABLES],
                          [f"ALTER TABLE {table} RESET ({_RESET})" for table in _TABLES]),
    ]
