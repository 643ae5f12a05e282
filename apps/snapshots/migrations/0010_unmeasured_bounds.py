"""Top-N gaps kept as unknown: bounds on unmeasured request counts, truncated names.

The rollups' rows gain six counters (apps.snapshots.activity.COUNTERS), so the stored
rollups and window bases are dropped and every snapshot is rolled up again at the next read.
"""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('snapshots', '0009_rollup_database'),
    ]

    operations = [
        migrations.AddField(
            model_name='segment',
            name='name_truncated',
            field=models.BooleanField(db_default=False, default=False),
        ),
        migrations.AddField(
            model_name='segmentstat',
            name='read_requests_bound',
            field=models.BigIntegerField(null=True),
        ),
        migrations.AddField(
            model_name='segmentstat',
            name='write_requests_bound',
            field=models.BigIntegerField(null=True),
        ),
        migrations.AddField(
            model_name='snapshot',
            name='unlisted_read_requests_bound',
            field=models.BigIntegerField(null=True),
        ),
        migrations.AddField(
            model_name='snapshot',
            name='unlisted_write_requests_bound',
            field=models.BigIntegerField(null=True),
        ),
        migrations.RunSQL(
            "DELETE FROM snapshots_windowbase; DELETE FROM snapshots_rollupday; "
            "UPDATE snapshots_snapshot SET rolled_up = false WHERE rolled_up;",
            migrations.RunSQL.noop,
        ),
    ]
